import { dueAfterErrorMs, dueAfterVerdictMs, type ResamplingPolicy } from './resampling-schedule';

const policy: ResamplingPolicy = {
  undecidedBackoffDays: [30, 90, 180],
  reverifyPeriodDays: 45,
  samplingRetrySeconds: 300,
  maxSamplingRetrySeconds: 3600,
};
const now = Date.parse('2026-08-15T07:00:00Z');
const days = (ms: number) => (ms - now) / 86_400_000;

describe('re-sampling schedule', () => {
  it('backs an undecided domain off 30, 90, then 180 days — and keeps trying every 180', () => {
    expect(
      [1, 2, 3, 4, 9].map((count) => days(dueAfterVerdictMs(policy, 'unknown', count, now))),
    ).toEqual([30, 90, 180, 180, 180]);
  });

  it('re-verifies a decided domain after the configured period, whatever came before', () => {
    for (const verdict of ['csr', 'partial', 'ssr'] as const) {
      expect(days(dueAfterVerdictMs(policy, verdict, 0, now))).toBe(45);
    }
  });

  it('retries an error sooner, doubling up to the cap', () => {
    expect(
      [1, 2, 3, 4, 5].map((attempt) => (dueAfterErrorMs(policy, attempt, now) - now) / 1000),
    ).toEqual([300, 600, 1200, 2400, 3600]);
  });
});
