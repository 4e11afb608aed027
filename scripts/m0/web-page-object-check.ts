import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import downloaderDocument from '../../generated/downloader/openapi.json';
import { normalizeOpenApiSchema } from '../../services/common/contract-runtime/json-schema-normalizer';
import { contentHash, normalizeUrl, urlHash } from '../../services/common/url';

export type FieldVerdict = 'ok' | 'missing' | 'wrong';

export interface FieldCheck {
  field: string;
  verdict: FieldVerdict;
  /** What was found (a short rendering of the value) or what is wrong. */
  detail: string;
}

type Schema = Record<string, unknown>;
const definitions = downloaderDocument.components.schemas as unknown as Record<string, Schema>;
const pageSchema = definitions.WebPageObject as {
  properties: Record<string, Schema>;
  required: string[];
};

/**
 * M0 step 4: checks a web page object field by field against the contract — every field of
 * CONTRACT.md §八's WebPageObject table present with its type and nullability (validated with the
 * contract's own schema), plus the relations the contract states between fields: the hashes, the
 * health_signal counts derived from network_log, normalized links. Returns one line per field.
 */
export function checkWebPageObject(candidate: unknown): FieldCheck[] {
  if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) {
    return [{ field: '(object)', verdict: 'wrong', detail: 'the answer is not a JSON object' }];
  }
  const page = candidate as Record<string, unknown>;
  const checks = Object.keys(pageSchema.properties).map((field) => checkField(page, field));
  for (const extra of Object.keys(page).filter((field) => !(field in pageSchema.properties))) {
    checks.push({ field: extra, verdict: 'ok', detail: 'not in the contract (tolerated)' });
  }
  return checks;
}

const validators = new Map<string, ValidateFunction>();
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({
  $id: 'contract',
  definitions: Object.fromEntries(
    Object.entries(definitions).map(([name, schema]) => [
      name,
      normalizeOpenApiSchema(schema, 'contract'),
    ]),
  ),
});

function validatorOf(field: string): ValidateFunction {
  let validate = validators.get(field);
  if (!validate) {
    validate = ajv.compile(
      normalizeOpenApiSchema(pageSchema.properties[field], 'contract') as Schema,
    );
    validators.set(field, validate);
  }
  return validate;
}

function checkField(page: Record<string, unknown>, field: string): FieldCheck {
  if (!(field in page)) {
    const isRequired = pageSchema.required.includes(field);
    return {
      field,
      verdict: isRequired ? 'missing' : 'ok',
      detail: isRequired ? 'absent' : 'absent (optional)',
    };
  }
  const value = page[field];
  const validate = validatorOf(field);
  if (!validate(value)) {
    return { field, verdict: 'wrong', detail: ajv.errorsText(validate.errors, { dataVar: field }) };
  }
  const problem = relationProblem(page, field);
  return problem
    ? { field, verdict: 'wrong', detail: problem }
    : { field, verdict: 'ok', detail: summarize(value) };
}

/** The relations between fields that the contract states, for the fields that have one. */
function relationProblem(page: Record<string, unknown>, field: string): string | null {
  const text = (name: string) => (typeof page[name] === 'string' ? (page[name] as string) : null);
  switch (field) {
    case 'url_hash': {
      const url = text('url');
      return url && safeUrlHash(url) !== page.url_hash
        ? `is not the url_hash of url (${safeUrlHash(url)})`
        : null;
    }
    case 'url':
    case 'final_url': {
      const url = text(field);
      return url && normalizeUrlOrNull(url) !== url ? 'is not normalized (CONTRACT.md §十)' : null;
    }
    case 'content_hash': {
      const content = text('rendered_html') ?? text('response_body');
      return content !== null && contentHash(content) !== page.content_hash
        ? 'is not the hash of the stored content'
        : null;
    }
    case 'rendered_html':
      return page.is_rendered === true && text('rendered_html') === null
        ? 'null although is_rendered'
        : null;
    case 'health_signal':
      return healthSignalProblem(page);
    case 'link_list': {
      const links = page.link_list as Array<{ url: string }>;
      const unnormalized = links.find((link) => normalizeUrlOrNull(link.url) !== link.url);
      return unnormalized ? `link ${unnormalized.url} is not normalized` : null;
    }
    default:
      return null;
  }
}

function healthSignalProblem(page: Record<string, unknown>): string | null {
  const signal = page.health_signal as Record<string, unknown>;
  const statuses = (page.network_log as Array<{ type: string; http_status: number | null }>)
    .filter((entry) => entry.type === 'xhr')
    .map((entry) => entry.http_status ?? 0);
  const expected: Record<string, unknown> = {
    xhr_total_count: statuses.length,
    xhr_error_count: statuses.filter((status) => status >= 500).length,
    xhr_throttled_count: statuses.filter((status) => status === 429).length,
    xhr_denied_count: statuses.filter((status) => status === 401 || status === 403).length,
    has_console_error: (page.console_errors as unknown[]).length > 0,
    redirect_target_hash: typeof page.final_url === 'string' ? safeUrlHash(page.final_url) : null,
  };
  const mismatched = Object.keys(expected).filter((name) => signal[name] !== expected[name]);
  return mismatched.length > 0
    ? `disagrees with network_log/console_errors/final_url on ${mismatched.join(', ')}`
    : null;
}

function summarize(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} items`;
  if (value !== null && typeof value === 'object') return summarizeObject(value);
  if (typeof value === 'string')
    return value.length > 80
      ? `${JSON.stringify(value.slice(0, 77))}… (${value.length} chars)`
      : JSON.stringify(value);
  return String(value);
}

/**
 * A nested object (health_signal) whole, as `name=value` pairs, so no line ends mid-key; only a
 * long string value inside it is shortened.
 */
function summarizeObject(value: object): string {
  return Object.entries(value)
    .map(([name, inner]) => {
      const shown = JSON.stringify(inner) ?? String(inner);
      return `${name}=${shown.length > 40 ? `${shown.slice(0, 37)}…` : shown}`;
    })
    .join(' ');
}

function normalizeUrlOrNull(url: string): string | null {
  try {
    return normalizeUrl(url);
  } catch {
    return null;
  }
}

function safeUrlHash(url: string): string | null {
  try {
    return urlHash(url);
  } catch {
    return null;
  }
}
