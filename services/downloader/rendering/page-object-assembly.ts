import { contentHash, urlHash } from '../../common/url/url-hash';
import { formatContractTime, httpDateToContractTime } from './contract-time';
import { computeHealthSignal } from './health-signal';
import type { PageOutcome } from './render-outcome';
import type { ConsoleError, NetworkLogEntry, PageLink } from './rendered-page';

/** Everything a successful fetch or render produced, before it becomes the wire object. */
export interface PageObjectParts {
  /** Requested URL, normalized. */
  readonly url: string;
  /** Final URL, normalized. */
  readonly finalUrl: string;
  readonly httpStatus: number;
  readonly isRendered: boolean;
  readonly renderedHtml: string | null;
  readonly responseBody: string | null;
  /** The bytes content_hash and html_byte_count are computed over. */
  readonly content: string | Buffer;
  readonly contentType: string | null;
  readonly title: string | null;
  readonly lang: string | null;
  readonly etag: string | null;
  /** Raw Last-Modified header. */
  readonly lastModifiedHeader: string | null;
  readonly fetchedAt: Date;
  readonly renderDurationMs: number;
  readonly networkLog: NetworkLogEntry[];
  readonly consoleErrors: ConsoleError[];
  readonly links: PageLink[];
  readonly textCharacterCount: number;
  /** Blank visible text in the content region → fetch_status `empty`. */
  readonly isContentBlank: boolean;
}

/** The one place a page object and its statistics are built, for rendered and plain fetches alike. */
export function assemblePageOutcome(parts: PageObjectParts): PageOutcome {
  const contentBytes =
    typeof parts.content === 'string' ? Buffer.from(parts.content, 'utf8') : parts.content;
  return {
    kind: 'page',
    page: {
      url: parts.url,
      url_hash: urlHash(parts.url),
      final_url: parts.finalUrl,
      http_status: parts.httpStatus,
      fetch_status: parts.isContentBlank ? 'empty' : 'done',
      is_rendered: parts.isRendered,
      rendered_html: parts.renderedHtml,
      response_body: parts.responseBody,
      content_type: parts.contentType,
      content_hash: contentHash(contentBytes),
      title: parts.title,
      lang: parts.lang,
      etag: parts.etag,
      last_modified_at: httpDateToContractTime(parts.lastModifiedHeader),
      fetched_at: formatContractTime(parts.fetchedAt),
      render_duration_ms: parts.renderDurationMs,
      network_log: parts.networkLog,
      console_errors: parts.consoleErrors,
      link_list: parts.links,
      health_signal: computeHealthSignal(parts.networkLog, parts.consoleErrors, parts.finalUrl),
    },
    statistics: {
      render_duration_ms: parts.renderDurationMs,
      html_byte_count: contentBytes.length,
      text_character_count: parts.textCharacterCount,
      link_count: parts.links.length,
    },
  };
}
