/** What one render produced, as far as the benchmark cares. */
export type RenderResult =
  | {
      readonly isSuccess: true;
      /** URLs of the page's answered xhr entries in its network log (fetch() counts as xhr). */
      readonly xhrUrls: readonly string[];
      readonly linkCount: number;
    }
  | { readonly isSuccess: false; readonly failure: string };

/** One page of one contender: when its render started and ended (ms since epoch) and its result. */
export interface PageRecord {
  readonly url: string;
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
  readonly result: RenderResult;
  /** Over-limit answers (429) the downloader gave before this page went through. */
  readonly overLimitAnswerCount?: number;
}

export function failureResult(error: unknown): RenderResult {
  return { isSuccess: false, failure: error instanceof Error ? error.message : String(error) };
}
