import { judgeFlat, judgeNotGrowing, type SoakInterval } from './soak-judgement';

function interval(index: number, pagesPerSecond: number, chromiumCount = 10): SoakInterval {
  return {
    index,
    pageCount: pagesPerSecond * 60,
    pagesPerSecond,
    failedCount: 0,
    meanRssBytes: 1e9,
    meanChromiumCount: chromiumCount,
    maxChromiumCount: chromiumCount,
    poolSizes: [6],
  };
}

const rate = (entry: SoakInterval) => entry.pagesPerSecond;
const format = (value: number) => value.toFixed(1);

describe('soak judgement', () => {
  test('flat: every interval after the first within ±10 % of their median', () => {
    const steady = [interval(0, 3), interval(1, 8), interval(2, 8.5), interval(3, 7.6)];
    expect(judgeFlat('pages/s', steady, rate, format).isPass).toBe(true);
    const sagging = [...steady, interval(4, 6.5)];
    const verdict = judgeFlat('pages/s', sagging, rate, format);
    expect(verdict.isPass).toBe(false);
    expect(verdict.text).toContain('farthest 6.5');
  });

  test('not judged on too short a run', () => {
    expect(judgeFlat('pages/s', [interval(0, 8), interval(1, 8)], rate, format)).toMatchObject({
      isPass: false,
      text: expect.stringContaining('not judged'),
    });
  });

  test('a growing process count fails', () => {
    const count = (entry: SoakInterval) => entry.meanChromiumCount;
    const steady = [interval(0, 8, 8), interval(1, 8, 10), interval(2, 8, 11), interval(3, 8, 11)];
    expect(judgeNotGrowing('Chromium', steady, count).isPass).toBe(true);
    const leaking = [...steady, interval(4, 8, 16)];
    expect(judgeNotGrowing('Chromium', leaking, count).isPass).toBe(false);
  });
});
