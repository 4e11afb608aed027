import { TimeoutError } from 'puppeteer-core';
import { tryNormalizeUrl } from '../../common/url/normalize-url';
import { EgressError } from '../egress/egress-error';
import type { EgressFailureRegistry } from '../egress/egress-failure-registry';
import type { PooledPage } from './browser-generation';
import { detectBotChallenge } from '../../common/challenge/challenge-detection';
import { ConditionalDocumentRequest, DocumentValidators } from './conditional-document-request';
import { ConsoleErrorRecorder } from './console-error-recorder';
import { Deadline } from './deadline';
import { failReasonForHttpStatus, failReasonForNetError } from './failure-classification';
import { NetworkLogRecorder } from './network-log-recorder';
import { apiEndpointCandidateOf } from './api-endpoint-evidence';
import { JsonResponseCollector } from './json-response-collector';
import {
  failedOutcome,
  notModifiedOutcome,
  outcomeOfEgressError,
  refusedOutcome,
} from './outcome-builders';
import { assemblePageOutcome } from './page-object-assembly';
import { waitForPageToSettle } from './page-settle-wait';
import { readNextPendingWork } from './pending-timer-tracker';
import { waitForSelectorInPage } from './selector-wait';
import { PageSnapshot, takePageSnapshot } from './page-snapshot';
import type { RefusedOutcome, RenderOutcome } from './render-outcome';

export interface PageRenderSettings {
  /** No request unfinished this long, nothing scheduled soon: the page is complete. */
  readonly settleMs: number;
  /** Network-quiet window, the upper bound of the settle (pitfalls.md: 300–500 ms catches late XHRs). */
  readonly quietWindowMs: number;
  /** Longest the quiet wait may take, for pages that never go quiet. */
  readonly quietWindowCapMs: number;
  readonly maxHtmlCharacterCount: number;
  readonly maxLinkCount: number;
  /** See RenderEngineOptions.isApiEvidenceCollected. */
  readonly isApiEvidenceCollected: boolean;
  /** What the egress proxy knows about failed origins (DNS, refusals, …). */
  readonly egressFailures: EgressFailureRegistry;
}

export interface PageRenderTask {
  /** Normalized. */
  readonly url: string;
  readonly waitSelector: string | null;
  readonly timeoutMs: number;
  readonly validators?: DocumentValidators;
  readonly sentValidators: { etag?: string | null; lastModifiedAt?: string | null };
  /** See RenderRequest.onDispatch. */
  readonly onDispatch?: () => void;
  /** See RenderRequest.onOriginAnswered. */
  readonly onOriginAnswered?: () => void;
}

/** Longest a render waits for JSON bodies still being read from Chromium (hint evidence). */
const JSON_BODY_READ_MS = 500;

function defaultPort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/**
 * Why the navigation produced no usable response. The proxy's record for the failing origin wins
 * (Chromium only sees "empty response" / "tunnel failed" for what the proxy refused or could not
 * reach); otherwise Chromium's net error decides.
 */
function navigationFailure(
  error: unknown,
  recorder: NetworkLogRecorder,
  task: PageRenderTask,
  settings: PageRenderSettings,
  startedAt: Date,
): RenderOutcome {
  if (error instanceof TimeoutError) {
    return failedOutcome(
      'navigation_timeout',
      `navigation did not finish within ${task.timeoutMs} ms`,
      startedAt,
    );
  }
  const failingUrl = new URL(recorder.mainDocument.url ?? task.url);
  const proxyFailure = settings.egressFailures.latest(
    failingUrl.hostname,
    defaultPort(failingUrl),
    startedAt.getTime(),
  );
  if (proxyFailure !== undefined) {
    return outcomeOfEgressError(
      new EgressError(proxyFailure.kind, proxyFailure.message),
      startedAt,
    );
  }
  const errorText =
    recorder.mainDocument.errorText ?? (error instanceof Error ? error.message : String(error));
  return failedOutcome(
    failReasonForNetError(errorText),
    `navigation to ${failingUrl.href} failed: ${errorText}`,
    startedAt,
  );
}

function challengeOf(snapshot: PageSnapshot, headers: Record<string, string>): string | undefined {
  return detectBotChallenge({
    headers,
    title: snapshot.title,
    visibleTextLength: snapshot.bodyTextLength,
    html: snapshot.html ?? '',
  });
}

/**
 * One render on a pooled page (at about:blank, or still showing its previous document): navigate, wait for `wait_selector`, wait
 * for network quiet, snapshot, and turn it all into an outcome. Crashes and the hard time limit
 * are handled by the caller; this function bounds each of its own steps by the render's deadline.
 */
export async function renderOnPage(
  pooled: PooledPage,
  task: PageRenderTask,
  settings: PageRenderSettings,
): Promise<RenderOutcome> {
  const startedAt = new Date();
  const deadline = new Deadline(task.timeoutMs, startedAt.getTime());
  const recorder = new NetworkLogRecorder(pooled.session, pooled.mainFrameId);
  const consoleRecorder = new ConsoleErrorRecorder(pooled.session);
  const jsonCollector = settings.isApiEvidenceCollected
    ? new JsonResponseCollector(pooled.session, new URL(task.url).origin)
    : undefined;
  if (task.onOriginAnswered !== undefined) recorder.onceMainDocumentAnswered(task.onOriginAnswered);
  recorder.start();
  consoleRecorder.start();
  jsonCollector?.start();
  const conditional =
    task.validators === undefined
      ? undefined
      : await ConditionalDocumentRequest.enable(
          pooled.session,
          pooled.mainFrameId,
          task.validators,
        );
  try {
    let navigationError: unknown;
    task.onDispatch?.();
    try {
      await pooled.page.goto(task.url, { waitUntil: 'load', timeout: deadline.remainingMs() });
    } catch (error) {
      navigationError = error;
    }
    await conditional?.disable();
    if (conditional?.notModifiedHeaders !== undefined) {
      return notModifiedOutcome(
        task.url,
        conditional.notModifiedHeaders,
        task.sentValidators,
        startedAt,
      );
    }
    if (navigationError !== undefined) {
      return navigationFailure(navigationError, recorder, task, settings, startedAt);
    }
    const main = recorder.mainDocument;
    const headers = main.headers ?? {};
    const status = main.status;
    if (status === undefined) {
      return failedOutcome('connection_failed', `no response for ${task.url}`, startedAt);
    }
    const snapshotLimits = {
      maxHtmlCharacterCount: settings.maxHtmlCharacterCount,
      maxLinkCount: settings.maxLinkCount,
    };
    const statusFailure = failReasonForHttpStatus(status);
    if (statusFailure !== undefined) {
      // Challenge interstitials usually come as 403/429/503: look before calling it a status error.
      const errorPage = await takePageSnapshot(pooled.session, null, snapshotLimits);
      const challenge = challengeOf(errorPage, headers);
      return challenge === undefined
        ? failedOutcome(statusFailure, `main document answered ${status}`, startedAt, status)
        : failedOutcome('challenge_detected', `bot challenge: ${challenge}`, startedAt, status);
    }

    if (task.waitSelector !== null) {
      const waited = await waitForSelectorInPage(pooled.session, task.waitSelector, deadline);
      if (waited === 'timeout') {
        return failedOutcome(
          'wait_selector_timeout',
          `"${task.waitSelector}" did not appear within ${task.timeoutMs} ms`,
          startedAt,
          status,
        );
      }
    }
    await waitForPageToSettle(recorder, () => readNextPendingWork(pooled.session), {
      settleMs: settings.settleMs,
      quietWindowMs: settings.quietWindowMs,
      capMs: Math.min(settings.quietWindowCapMs, deadline.remainingMs()),
    });

    const snapshot = await takePageSnapshot(
      pooled.session,
      task.waitSelector,
      snapshotLimits,
      jsonCollector?.hasResponses ?? false,
    );
    if (snapshot.html === null) {
      return failedOutcome(
        'content_too_large',
        `rendered HTML has ${snapshot.htmlCharacterCount} characters, limit ${settings.maxHtmlCharacterCount}`,
        startedAt,
        status,
      );
    }
    const challenge = challengeOf(snapshot, headers);
    if (challenge !== undefined) {
      return failedOutcome('challenge_detected', `bot challenge: ${challenge}`, startedAt, status);
    }
    const finalUrl = tryNormalizeUrl(main.url ?? task.url) ?? task.url;
    const outcome = assemblePageOutcome({
      url: task.url,
      finalUrl,
      httpStatus: status,
      isRendered: true,
      renderedHtml: snapshot.html,
      responseBody: null,
      content: snapshot.html,
      contentType: headers['content-type'] ?? null,
      title: snapshot.title,
      lang: snapshot.lang,
      etag: headers.etag ?? null,
      lastModifiedHeader: headers['last-modified'] ?? null,
      fetchedAt: startedAt,
      renderDurationMs: Date.now() - startedAt.getTime(),
      networkLog: recorder.networkLog,
      consoleErrors: consoleRecorder.consoleErrors(),
      links: snapshot.links,
      textCharacterCount: snapshot.contentTextLength,
      isContentBlank: snapshot.contentTextLength === 0,
    });
    const apiEndpointCandidate =
      snapshot.mainText === null || jsonCollector === undefined
        ? undefined
        : apiEndpointCandidateOf(
            snapshot.mainText,
            await jsonCollector.responses(JSON_BODY_READ_MS),
          );
    return apiEndpointCandidate === undefined ? outcome : { ...outcome, apiEndpointCandidate };
  } finally {
    recorder.stop();
    consoleRecorder.stop();
    jsonCollector?.stop();
    await conditional?.disable();
  }
}

/** Refuses a render whose wait_selector is not valid CSS, before anything is fetched. */
export function invalidSelectorOutcome(selector: string): RefusedOutcome {
  return refusedOutcome(
    'invalid_wait_selector',
    `wait_selector is not a valid CSS selector: ${selector}`,
  );
}
