import { failedResult, doneResult, healthySignal } from '../testing/contract-fixtures';
import {
  emptyWindow,
  findPauseReason,
  isProbeAnswerHealthy,
  observationOfResult,
  slide,
  windowSums,
  type HealthThresholds,
} from './health-window';

const thresholds: HealthThresholds = {
  windowResultCount: 4,
  minResultCount: 2,
  minXhrCount: 10,
  xhrErrorRatio: 0.5,
  xhrThrottledRatio: 0.3,
  xhrDeniedRatio: 0.5,
  originFailureRatio: 0.5,
};
const task = { url: 'https://a.example/', url_hash: '0123456789abcdef0123456789abcdef' };

function judge(results: ReturnType<typeof doneResult>[]) {
  const window = { current_window: emptyWindow(), previous_window: emptyWindow() };
  for (const result of results) slide(window, observationOfResult(result), thresholds);
  return findPauseReason(windowSums(window), thresholds);
}

describe('the health window', () => {
  it('decides nothing below the minimum of results or XHRs', () => {
    expect(
      judge([doneResult(task, { health_signal: healthySignal({ xhr_error_count: 10 }) })]),
    ).toBeNull();
    const fewXhrs = healthySignal({ xhr_total_count: 2, xhr_error_count: 2 });
    expect(
      judge([
        doneResult(task, { health_signal: fewXhrs }),
        doneResult(task, { health_signal: fewXhrs }),
      ]),
    ).toBeNull();
  });

  it('names the ratio that crossed its threshold', () => {
    const throttled = healthySignal({ xhr_throttled_count: 7 });
    expect(judge([doneResult(task, { health_signal: throttled }), doneResult(task)])).toBe(
      'xhr_throttled_ratio',
    );
    const denied = healthySignal({ xhr_denied_count: 10 });
    expect(judge([doneResult(task, { health_signal: denied }), doneResult(task)])).toBe(
      'xhr_denied_ratio',
    );
    const failing = healthySignal({ xhr_error_count: 10 });
    expect(judge([doneResult(task, { health_signal: failing }), doneResult(task)])).toBe(
      'xhr_error_ratio',
    );
    // Several over their thresholds: errors are named before throttling, throttling before denials.
    const everything = healthySignal({
      xhr_error_count: 10,
      xhr_throttled_count: 10,
      xhr_denied_count: 10,
    });
    expect(judge([doneResult(task, { health_signal: everything }), doneResult(task)])).toBe(
      'xhr_error_ratio',
    );
    const throttledAndDenied = healthySignal({ xhr_throttled_count: 10, xhr_denied_count: 10 });
    expect(judge([doneResult(task, { health_signal: throttledAndDenied }), doneResult(task)])).toBe(
      'xhr_throttled_ratio',
    );
    expect(judge([failedResult(task, 'http_server_error'), doneResult(task)])).toBe(
      'origin_failure_ratio',
    );
    expect(judge([failedResult(task, 'navigation_timeout'), doneResult(task)])).toBeNull();
  });

  it('forgets results older than the window', () => {
    const bad = doneResult(task, { health_signal: healthySignal({ xhr_error_count: 10 }) });
    expect(
      judge([bad, bad, doneResult(task), doneResult(task), doneResult(task), doneResult(task)]),
    ).toBeNull();
  });

  it('counts the last results in two halves that trade places as each fills, in place', () => {
    const window = { current_window: emptyWindow(), previous_window: emptyWindow() };
    const [firstHalf, secondHalf] = [window.current_window, window.previous_window];
    const countsAfter: number[] = [];
    for (let result = 1; result <= 7; result += 1) {
      slide(window, observationOfResult(doneResult(task)), thresholds);
      countsAfter.push(windowSums(window).result_count);
    }
    // W = 4: a half holds 2 and is passed on once full, so the window counts the full previous
    // half and the 0–1 results since.
    expect(countsAfter).toEqual([1, 2, 3, 2, 3, 2, 3]);
    // The same two objects throughout: after 7 results (three rollovers) they have traded places.
    expect(window.current_window).toBe(secondHalf);
    expect(window.previous_window).toBe(firstHalf);
    expect(window.previous_window.result_count).toBe(2);
  });

  it('judges a probe answer by its status and its own XHR ratios', () => {
    expect(isProbeAnswerHealthy(200, null, thresholds)).toBe(true);
    expect(isProbeAnswerHealthy(404, healthySignal(), thresholds)).toBe(true);
    for (const status of [500, 503, 429, 403, 401])
      expect(isProbeAnswerHealthy(status, null, thresholds)).toBe(false);
    expect(isProbeAnswerHealthy(null, null, thresholds)).toBe(false);
    expect(isProbeAnswerHealthy(200, healthySignal({ xhr_error_count: 9 }), thresholds)).toBe(
      false,
    );
  });
});
