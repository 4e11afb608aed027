import type { Logger } from 'pino';
import type { components } from '../../../generated/sampler/types';
import { primaryKey, type PrimaryKey } from '../../common/storage/primary-key';
import { hashOfNormalizedUrl } from '../../common/url';
import {
  normalizeUrlParts,
  UrlNormalizationError,
  type NormalizedUrl,
} from '../../common/url/normalize-url';
import { timeTextOf, type Clock } from '../sampler-clock';
import type { SamplerMetrics } from '../sampler-metrics';
import type { ApiEndpointHintTaskDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { InvalidApiEndpointHintError } from './api-hint-errors';

type ApiEndpointHint = components['schemas']['ApiEndpointHint'];
export type ApiEndpointHintsResponse = components['schemas']['ApiEndpointHintsResponse'];

export interface ApiHintIntakeDependencies {
  tables: SamplerTables;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
  /** Told about each domain that got a new hint (its verification is due now). */
  onNewHint: (domain: string) => void;
}

/** A hint that passed the checks: its normalized URLs and its storage key. */
interface CheckedHint {
  key: PrimaryKey;
  keyText: string;
  document: ApiEndpointHintTaskDocument;
}

/**
 * POST /v1/api-endpoint-hints: the downloader's evidence, stored for verification in
 * `sampler:api_endpoint_hint_task:{domain}/{endpoint_hash}` (endpoint_hash = url_hash of the
 * normalized endpoint URL, so two spellings of one endpoint are one hint). The batch is checked
 * whole before anything is stored — both URLs on the hint's domain, the endpoint on the page's
 * origin (an api fetch is the page's fetch by other means) — and refused naming the first hint at
 * fault. Idempotent by domain + endpoint_url: the first arrival is stored with a
 * compare-and-swap, a repeat (in the batch or later) counts as a duplicate and changes nothing.
 */
export class ApiHintIntake {
  constructor(private readonly dependencies: ApiHintIntakeDependencies) {}

  async submit(hintList: readonly ApiEndpointHint[]): Promise<ApiEndpointHintsResponse> {
    const { tables, metrics, logger, onNewHint } = this.dependencies;
    const receivedAt = timeTextOf(this.dependencies.clock.nowMs());
    const checked = hintList.map((hint, index) => checkedHint(hint, index, receivedAt));
    const answer: ApiEndpointHintsResponse = { accepted_count: 0, duplicate_count: 0 };
    const seenInBatch = new Set<string>();
    for (const hint of checked) {
      const isFirst =
        !seenInBatch.has(hint.keyText) &&
        (await tables.apiEndpointHints.compareAndSwap(hint.key, undefined, hint.document))
          .isSwapped;
      seenInBatch.add(hint.keyText);
      metrics.apiEndpointHintCount.inc({ result: isFirst ? 'accepted' : 'duplicate' });
      if (!isFirst) {
        answer.duplicate_count += 1;
        continue;
      }
      answer.accepted_count += 1;
      logger.info(
        {
          domain: hint.document.domain,
          page_url: hint.document.page_url,
          endpoint_url: hint.document.endpoint_url,
        },
        'API endpoint hint stored for verification',
      );
      onNewHint(hint.document.domain);
    }
    return answer;
  }
}

/** `Example.COM.` is the domain `example.com` (CONTRACT.md §十). */
function domainOf(hint: ApiEndpointHint): string {
  return hint.domain.trim().toLowerCase().replace(/\.$/, '');
}

function checkedHint(hint: ApiEndpointHint, index: number, receivedAt: string): CheckedHint {
  const refuse = (why: string) => new InvalidApiEndpointHintError(`hint_list[${index}]: ${why}`);
  const domain = domainOf(hint);
  const normalized = (field: 'page_url' | 'endpoint_url'): NormalizedUrl => {
    let parts: NormalizedUrl;
    try {
      parts = normalizeUrlParts(hint[field]);
    } catch (error) {
      if (error instanceof UrlNormalizationError) {
        throw refuse(`${field} is not a crawlable URL (${error.reason})`);
      }
      throw error;
    }
    if (parts.host !== domain) {
      throw refuse(`${field} is on ${parts.host}, not on the hint's domain ${domain}`);
    }
    return parts;
  };
  const page = normalized('page_url');
  const endpoint = normalized('endpoint_url');
  if (new URL(page.url).origin !== new URL(endpoint.url).origin) {
    throw refuse(
      `endpoint_url is on ${new URL(endpoint.url).origin}, another origin than page_url's ` +
        new URL(page.url).origin,
    );
  }
  if (hint.content_pointer !== '' && !hint.content_pointer.startsWith('/')) {
    throw refuse('content_pointer is not a JSON Pointer ("" or starting with "/")');
  }
  if (hint.matched_character_count > hint.text_character_count) {
    throw refuse('matched_character_count exceeds text_character_count');
  }
  const key = primaryKey(domain, hashOfNormalizedUrl(endpoint.url));
  return {
    key,
    keyText: key.encoded,
    document: {
      domain,
      page_url: page.url,
      endpoint_url: endpoint.url,
      content_pointer: hint.content_pointer,
      matched_character_count: hint.matched_character_count,
      text_character_count: hint.text_character_count,
      observed_at: hint.observed_at,
      received_at: receivedAt,
      verification_state: 'pending',
      verification_note: null,
      checked_at: null,
      check_count: 0,
      next_check_at: receivedAt,
    },
  };
}
