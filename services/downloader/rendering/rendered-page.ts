/**
 * The web page object (CONTRACT.md, "Web page object") exactly as it goes on the wire: property
 * names are the contract's snake_case names, byte for byte. `object_id` is not here: storage
 * assigns it. Statistics travel in the report, next to the object, so they are a separate type.
 */

/** The contract's maxLength for URLs in link_list and network_log. */
export const MAX_WIRE_URL_LENGTH = 8192;

export const NETWORK_RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'xhr',
  'websocket',
  'other',
] as const;
export type NetworkResourceType = (typeof NETWORK_RESOURCE_TYPES)[number];

export interface NetworkLogEntry {
  url: string;
  type: NetworkResourceType;
  method: string;
  /** null when no response arrived (failed, refused, cancelled). */
  http_status: number | null;
}

export interface ConsoleError {
  message: string;
  /** Script that raised it (the document URL for inline scripts); null when unknown. */
  source_url: string | null;
}

export const DOM_POSITIONS = ['main', 'navigation', 'header', 'footer', 'aside', 'other'] as const;
export type DomPosition = (typeof DOM_POSITIONS)[number];

export interface PageLink {
  /** Absolute, normalized, http(s) only. */
  url: string;
  /** Lowercase tokens separated by one space; "" when the link has no rel. */
  rel: string;
  dom_position: DomPosition;
  /** Trimmed, whitespace collapsed. */
  anchor_text: string;
}

export interface HealthSignal {
  xhr_total_count: number;
  xhr_error_count: number;
  xhr_throttled_count: number;
  xhr_denied_count: number;
  has_console_error: boolean;
  redirect_target_hash: string;
}

export type PageFetchStatus = 'done' | 'empty';

export interface RenderedPage {
  url: string;
  url_hash: string;
  final_url: string;
  http_status: number;
  fetch_status: PageFetchStatus;
  is_rendered: boolean;
  rendered_html: string | null;
  response_body: string | null;
  content_type: string | null;
  content_hash: string;
  title: string | null;
  lang: string | null;
  etag: string | null;
  last_modified_at: string | null;
  fetched_at: string;
  render_duration_ms: number;
  network_log: NetworkLogEntry[];
  console_errors: ConsoleError[];
  link_list: PageLink[];
  health_signal: HealthSignal;
}

export interface PageStatistics {
  render_duration_ms: number;
  html_byte_count: number;
  text_character_count: number;
  link_count: number;
}
