import { SamplerClient } from '../../generated/sampler';

/** What one look at the sampler's queue says about each domain: being sampled, or its verdict. */
function stateLines(
  view: Awaited<ReturnType<SamplerClient['getSamplingQueue']>>,
): Map<string, string> {
  const lines = new Map<string, string>();
  for (const task of view.task_list) {
    if (task.is_in_progress) {
      lines.set(
        task.domain,
        `sampler: sampling ${task.domain} (robots.txt, sitemap, pages plain and rendered, all through the downloader) …`,
      );
    } else if (task.verdict !== null) {
      const meaning =
        task.verdict === 'csr' || task.verdict === 'partial'
          ? 'rule sent to the scheduler; its URLs are crawled now'
          : `rule sent; the scheduler drops its URLs${task.undetermined_reason ? ` (${task.undetermined_reason}); exported to consumers` : ''}`;
      lines.set(task.domain, `sampler: ${task.domain} judged ${task.verdict} — ${meaning}`);
    }
  }
  return lines;
}

/**
 * Prints a line whenever the sampler starts or finishes a domain (its operator view, checked every
 * 2 s): the live part of "the sampler takes over" in `make run`.
 */
export function followSampler(options: {
  url: string;
  token: string;
  say: (line: string) => void;
}): NodeJS.Timeout {
  const client = new SamplerClient({
    baseUrl: options.url,
    token: options.token,
    maximumAttemptCount: 1,
  });
  const shown = new Map<string, string>();
  const timer = setInterval(() => {
    client
      .getSamplingQueue({ limit: 50 })
      .then((view) => {
        for (const [domain, line] of stateLines(view)) {
          if (shown.get(domain) !== line) {
            options.say(line);
            shown.set(domain, line);
          }
        }
      })
      .catch(() => undefined);
  }, 2000);
  timer.unref();
  return timer;
}
