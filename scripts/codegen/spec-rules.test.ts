import { join } from 'node:path';
import { ContractValidators } from '../../services/common/contract-runtime/contract-validators';
import type { OpenApiDocument } from '../../services/common/contract-runtime/openapi-document';
import type { OperationDefinition } from '../../services/common/contract-runtime/operation-definition';
import { failedResult } from '../../services/scheduler/testing/contract-fixtures';
import { contractServices } from './contract-services';
import { bundleServiceDocument } from './spec-bundler';

/*
 * Rules that used to live only in prose, now in the documents where a generated client, a fuzzer
 * or a reviewer reads them (issue 11): every answer a service can give is declared, the variant
 * rules are schema rules, the URL fields say what a URL is, and every body a schema allows fits
 * the body limit.
 */
interface Operation {
  operationId: string;
  requestBody?: unknown;
  responses: Record<string, { 'x-error-codes'?: string[]; $ref?: string }>;
}

function documentOf(service: string): OpenApiDocument & {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    responses?: Record<string, { 'x-error-codes'?: string[] }>;
  };
} {
  return bundleServiceDocument(join(__dirname, '..', '..', 'openapi'), service) as never;
}

describe.each(contractServices)('the %s document', (service) => {
  const document = documentOf(service);
  const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));

  it.each(operations.map((operation) => operation.operationId))(
    '%s declares 501 not_implemented (a scaffolded handler answers it) apart from 500',
    (operationId) => {
      const operation = operations.find((candidate) => candidate.operationId === operationId);
      const codesOf = (status: string) => {
        const response = operation?.responses[status];
        const name = response?.$ref?.split('/').pop();
        return (name === undefined ? response : document.components.responses?.[name])?.[
          'x-error-codes'
        ];
      };
      expect(codesOf('501')).toEqual(['not_implemented']);
      expect(codesOf('500')).toEqual(['internal_error']);
    },
  );
});

/** A body validator for one operation of the scheduler or downloader document. */
function bodyValidator(service: string, method: string, path: string) {
  const document = documentOf(service);
  const validators = new ContractValidators(document, service);
  const definition = { operationId: 'x', method, path } as unknown as OperationDefinition;
  const check = validators.requestBody(definition);
  if (check === null) throw new Error(`${method} ${path} has no body`);
  return (body: unknown) => ({
    isValid: check.validate(structuredClone(body)),
    failure: validators.describeFailure(check, body, 'body'),
  });
}

describe('POST /v1/render and POST /v1/probe: an absolute http(s) URL is a schema rule', () => {
  const accepts = [
    'http://127.0.0.2/',
    'HTTPS://Example.COM:8443/a/b?q=1#top',
    'https://xn--bcher-kva.example/straße',
    'http://192.0.2.10:8080/a',
    'http://under_score.example:/',
  ];
  const refuses = [
    'ftp://example.com/',
    'file:///etc/passwd',
    'http:example.com',
    'http://',
    ' http://example.com/',
    'http://example.com/a b',
    'http://user:secret@example.com/',
    'example.com/page',
    'https://\u008c/',
    'https://bücher.example/',
    'http://[::1]:8080/',
    'http://1.2.3.256/',
    'http://example.123/',
    'http://a..b.example/',
    'http://example.com:65536/',
  ];
  for (const path of ['/v1/render', '/v1/probe']) {
    const validate = bodyValidator('downloader', 'POST', path);
    it.each(accepts)(`${path} accepts %j`, (url) => expect(validate({ url }).isValid).toBe(true));
    it.each(refuses)(`${path} refuses %j`, (url) => expect(validate({ url }).isValid).toBe(false));
  }
});

describe('POST /v1/report: the fetch_status table is a schema rule answered fetch_status_mismatch', () => {
  const validate = bodyValidator('scheduler', 'POST', '/v1/report');
  const failed = failedResult(
    { url: 'https://a.example/', url_hash: '0123456789abcdef0123456789abcdef' },
    'navigation_timeout',
  );
  const report = (result: Record<string, unknown>) => ({
    lease_id: 'l-0123456789abcdef',
    worker_id: 'w1',
    result_list: [result],
  });

  it('accepts a failed result as the table has it', () => {
    expect(validate(report(failed)).isValid).toBe(true);
  });

  it.each([
    [{ object_id: '0123456789abcdef0123456789abcdef' }, 'as failed, object_id: must be null'],
    [{ fail_reason: null }, 'as failed, fail_reason: must be one of'],
    [{ fetch_status: 'not_modified' }, 'as not modified (304), fail_reason: must be null'],
    [{ fetch_status: 'done' }, 'as rendered (done, empty), fail_reason: must be null'],
  ])('refuses a failed result changed by %j, naming the rule', (change, message) => {
    const { isValid, failure } = validate(report({ ...failed, ...change }));
    expect(isValid).toBe(false);
    expect(failure.violationErrorCode).toBe('fetch_status_mismatch');
    expect(failure.message).toContain(`body.result_list[0]: ${message}`);
  });

  it('a body broken elsewhere too is an ordinary invalid_request, without the variants’ noise', () => {
    const { failure } = validate(report({ ...failed, object_id: 'abc', url_hash: 'short' }));
    expect(failure.violationErrorCode).toBeUndefined();
    expect(failure.message).toContain('body.result_list[0].url_hash');
  });
});

describe('POST /v1/rules: undetermined_reason exactly when verdict is unknown', () => {
  const validate = bodyValidator('scheduler', 'POST', '/v1/rules');
  const rule = {
    domain: 'a.example',
    verdict: 'csr',
    undetermined_reason: null,
    min_interval_ms: 1000,
    wait_selector: null,
    priority_rank: 0,
    robots_txt: null,
    verified_at: '2026-08-15T07:00:00Z',
  };
  it.each([
    [{}, true],
    [{ verdict: 'unknown', undetermined_reason: 'login_required' }, true],
    [{ verdict: 'unknown' }, false],
    [{ undetermined_reason: 'login_required' }, false],
  ])('%j → valid %s', (change, isValid) => {
    expect(validate({ rule_list: [{ ...rule, ...change }] }).isValid).toBe(isValid);
  });
});

describe('POST /v1/seeds: every body the schema allows fits the body limit', () => {
  it('the most seeds of the longest URLs, each with a priority_rank, stay under 10 MiB', () => {
    const schemas = documentOf('scheduler').components.schemas;
    const seedList = (schemas.SeedsRequest.properties as Record<string, { maxItems: number }>)
      .seed_list;
    const url = (schemas.SeedItem.properties as Record<string, { maxLength: number }>).url;
    const longestSeed = JSON.stringify({
      url: `https://a.example/${'p'.repeat(url.maxLength - 'https://a.example/'.length)}`,
      priority_rank: Number.MAX_SAFE_INTEGER,
    });
    const largestBody = `{"seed_list":[${Array(seedList.maxItems).fill(longestSeed).join(',')}]}`;
    expect(Buffer.byteLength(largestBody)).toBeLessThan(10 * 1024 * 1024);
  });
});
