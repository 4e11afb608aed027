import { DownloaderClient } from '../../generated/downloader';
import { SchedulerClient, type GetUrlTaskOutput } from '../../generated/scheduler';
import { domainOfUrl, normalizeUrl, urlHash } from '../../services/common/url';
import { checkWebPageObject, type FieldCheck } from './web-page-object-check';

export interface ServiceEndpoint {
  url: string;
  token: string;
}

export interface M0Options {
  scheduler: ServiceEndpoint;
  downloader: ServiceEndpoint;
  seedUrl: string;
  /** Further domains that get the same hand-written rule (e.g. the demo site's other hosts). */
  extraRuleDomainList?: readonly string[];
  /** The hand-written rule's values (M0 takes no sampler: rules are written by hand). */
  minIntervalMs: number;
  waitSelector: string | null;
  /** How long step 3 may take before M0 fails. */
  renderTimeoutMs: number;
  /** Progress, line by line. */
  say: (line: string) => void;
}

export interface M0Outcome {
  isPassed: boolean;
  objectId: string | null;
  fieldChecks: FieldCheck[];
}

type UrlTaskView = GetUrlTaskOutput;
type UrlState = UrlTaskView['url_state'];
const settledStates: ReadonlySet<UrlState> = new Set(['done', 'failed', 'dropped']);

/**
 * The four steps of M0 (CONTRACT.md §六) against services running anywhere: (1) a hand-written
 * rule to POST /v1/rules, (2) the seed to POST /v1/seeds, (3) the downloader leases, renders and
 * reports — followed on the scheduler's GET /v1/operator/url-tasks/{url_hash}, (4) the stored web
 * page object fetched from the downloader and checked field by field against the contract.
 */
export async function runM0(options: M0Options): Promise<M0Outcome> {
  const say = options.say;
  const scheduler = new SchedulerClient({
    baseUrl: options.scheduler.url,
    token: options.scheduler.token,
  });
  const downloader = new DownloaderClient({
    baseUrl: options.downloader.url,
    token: options.downloader.token,
  });
  const seedUrl = normalizeUrl(options.seedUrl);
  const domain = domainOfUrl(seedUrl);
  const seedHash = urlHash(seedUrl);
  const startedAt = new Date();

  const ruleDomains = [
    domain,
    ...(options.extraRuleDomainList ?? []).filter((other) => other !== domain),
  ];
  say(
    `[1/4] POST ${options.scheduler.url}/v1/rules — hand-written rule for ${ruleDomains.join(', ')} ` +
      `(verdict csr, min_interval_ms ${options.minIntervalMs})`,
  );
  const rules = await scheduler.submitRules({
    rule_list: ruleDomains.map((ruleDomain) => ({
      domain: ruleDomain,
      verdict: 'csr' as const,
      undetermined_reason: null,
      min_interval_ms: options.minIntervalMs,
      wait_selector: options.waitSelector,
      priority_rank: 0,
      robots_txt: null,
      verified_at: contractTime(startedAt),
    })),
  });
  say(
    `      accepted ${rules.accepted_count}, duplicate ${rules.duplicate_count}, outdated ${rules.outdated_count}`,
  );

  say(`[2/4] POST ${options.scheduler.url}/v1/seeds — ${seedUrl}`);
  const seeds = await scheduler.submitSeeds({ seed_list: [{ url: seedUrl, priority_rank: 0 }] });
  const rejection = seeds.rejected_list[0]?.reject_reason;
  if (rejection !== undefined && rejection !== 'duplicate_url') {
    say(`      refused: ${rejection}`);
    return { isPassed: false, objectId: null, fieldChecks: [] };
  }
  say(
    rejection === 'duplicate_url'
      ? '      already in the frontier (a previous run): following it there'
      : `      accepted ${seeds.accepted_count}`,
  );

  say('[3/4] the downloader leases the URL, renders it in Chromium and reports');
  const settled = await followUntilSettled(scheduler, seedHash, options.renderTimeoutMs, say);
  if (settled === null) {
    say(
      `      not settled within ${options.renderTimeoutMs} ms — is the downloader running and leasing from this scheduler?`,
    );
    return { isPassed: false, objectId: null, fieldChecks: [] };
  }
  if (settled.url_state !== 'done' || settled.object_id === null) {
    say(
      `      ended ${settled.url_state}${settled.fail_reason ? ` (${settled.fail_reason})` : ''}, no object`,
    );
    return { isPassed: false, objectId: null, fieldChecks: [] };
  }

  say(
    `[4/4] GET ${options.downloader.url}/v1/objects/${settled.object_id} — fields checked against CONTRACT.md §八`,
  );
  const page = await downloader.getWebPageObject({ object_id: settled.object_id });
  const fieldChecks = checkWebPageObject(page);
  for (const check of fieldChecks) {
    const mark = check.verdict === 'ok' ? '✓' : '✗';
    say(
      `      ${mark} ${check.field.padEnd(20)} ${check.verdict === 'ok' ? '' : `${check.verdict.toUpperCase()}: `}${check.detail}`,
    );
  }
  say(`      title: ${JSON.stringify(page.title)}`);
  say(
    `      text:  ${JSON.stringify(visibleTextExcerpt(page.rendered_html ?? page.response_body ?? ''))}`,
  );
  const failed = fieldChecks.filter((check) => check.verdict !== 'ok');
  say(
    failed.length === 0
      ? `M0 passed: ${fieldChecks.length} fields checked, all as the contract says.`
      : `M0 FAILED: ${failed.length} field(s) missing or wrong: ${failed.map((check) => check.field).join(', ')}`,
  );
  return { isPassed: failed.length === 0, objectId: settled.object_id, fieldChecks };
}

async function followUntilSettled(
  scheduler: SchedulerClient,
  hash: string,
  timeoutMs: number,
  say: (line: string) => void,
): Promise<UrlTaskView | null> {
  const deadline = Date.now() + timeoutMs;
  const started = Date.now();
  let lastState: string | undefined;
  while (Date.now() < deadline) {
    const view = await scheduler.getUrlTask({ url_hash: hash });
    if (view.url_state !== lastState) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      say(
        `      ${seconds.padStart(5)} s  ${view.url_state}${view.lease_id ? ` (lease ${view.lease_id})` : ''}`,
      );
      lastState = view.url_state;
    }
    if (settledStates.has(view.url_state)) return view;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}

/** The first words a reader would see, from the rendered HTML (scripts and styles left out). */
function visibleTextExcerpt(html: string): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function contractTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
