import { samplesOf } from '../system/prometheus-samples';
/** Small helpers the end-to-end tests share. */

/** Polls `probe` until it gives a value (every `pollMs`), or fails naming what it waited for. */
export async function waitFor<T>(
  describeWait: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  pollMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${describeWait}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/**
 * The sum of the series of counter `name` on a service's /metrics whose labels include every one
 * of `labels` (0 when none has).
 */
export async function metricSum(
  serviceUrl: string,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  return samplesOf(text, name)
    .filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}
