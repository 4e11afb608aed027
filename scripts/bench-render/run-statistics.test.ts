import { buildBenchPageSet } from './bench-page-set';
import type { ContenderRun } from './contender-run';
import type { PageRecord } from './page-record';
import { byProcessKind, type ProcessKind } from './process-kind';
import type { KindPss } from './process-tree';
import { computeRunStatistics, percentile } from './run-statistics';

const pages = buildBenchPageSet(['http://127.0.0.11:8001', 'http://127.0.0.12:8002'], 6);
const warmupUrls = new Set(pages.slice(0, 2).map((page) => page.url));

function renderedRecord(index: number, startedAtMs: number, finishedAtMs: number): PageRecord {
  const page = pages[index];
  return {
    url: page.url,
    startedAtMs,
    finishedAtMs,
    result: { isSuccess: true, xhrUrls: [...page.expectedXhrUrls], linkCount: 10 },
  };
}

describe('the bench page set', () => {
  it('spreads pages over the hosts and names each XHR after its item', () => {
    expect(pages.map((page) => page.url)).toEqual([
      'http://127.0.0.11:8001/items/0',
      'http://127.0.0.12:8002/items/1',
      'http://127.0.0.11:8001/items/2',
      'http://127.0.0.12:8002/items/3',
      'http://127.0.0.11:8001/items/4',
      'http://127.0.0.12:8002/items/5',
    ]);
    for (const page of pages) {
      expect(page.expectedXhrUrls.length).toBeGreaterThanOrEqual(4);
      for (const url of page.expectedXhrUrls) {
        expect(
          url.startsWith(`${page.url.replace(/\/items\/\d+$/, '')}/api/items/${page.itemNumber}/`),
        ).toBe(true);
      }
    }
    expect(pages[0].xhrPlan.filter((xhr) => xhr.isLate)).toHaveLength(1);
    expect(pages[0].xhrPlan.filter((xhr) => xhr.fillsContent)).toHaveLength(1);
  });
});

describe('computeRunStatistics', () => {
  it('measures throughput over the measured pages of each round, warm-up left out', () => {
    const round = (offsetMs: number): ContenderRun => ({
      label: 'x',
      records: [
        renderedRecord(0, offsetMs - 5000, offsetMs - 4000), // warm-up: ignored however slow
        renderedRecord(1, offsetMs - 5000, offsetMs - 4000),
        renderedRecord(2, offsetMs, offsetMs + 400),
        renderedRecord(3, offsetMs, offsetMs + 600),
        renderedRecord(4, offsetMs + 400, offsetMs + 900),
        renderedRecord(5, offsetMs + 600, offsetMs + 1000),
      ],
    });
    const statistics = computeRunStatistics([round(10_000), round(50_000)], pages, warmupUrls);
    // 8 measured pages over two windows of 1 s each.
    expect(statistics?.pageCount).toBe(8);
    expect(statistics?.pagesPerSecond).toBeCloseTo(4);
    expect(statistics?.p50LatencyMs).toBe(400);
    expect(statistics?.p95LatencyMs).toBe(600);
    expect(statistics?.missingXhrCount).toBe(0);
    expect(statistics?.cpuMsPerPage).toBeUndefined();
  });

  it('counts every expected XHR missing from a network log, and all of a failed page', () => {
    const partial = renderedRecord(2, 0, 500);
    const run: ContenderRun = {
      label: 'x',
      records: [
        {
          ...partial,
          result: {
            isSuccess: true,
            xhrUrls: partial.result.isSuccess ? partial.result.xhrUrls.slice(1) : [],
            linkCount: 3,
          },
        },
        {
          url: pages[3].url,
          startedAtMs: 0,
          finishedAtMs: 900,
          result: { isSuccess: false, failure: 'timeout' },
        },
      ],
    };
    const statistics = computeRunStatistics([run], pages, warmupUrls);
    expect(statistics?.failedCount).toBe(1);
    expect(statistics?.missingXhrCount).toBe(1 + pages[3].expectedXhrUrls.length);
    expect(statistics?.problems).toEqual([
      `${pages[2].url}: network_log lacks ${pages[2].expectedXhrUrls[0]}`,
      `${pages[3].url}: timeout`,
    ]);
  });

  it('takes CPU over the measured window from the samples around it', () => {
    const run: ContenderRun = {
      label: 'x',
      records: [renderedRecord(2, 1000, 1500), renderedRecord(3, 1000, 2000)],
      usage: {
        peakRssBytes: 3,
        peakPssBytes: 2,
        peakPssByKind: pssSplit(2),
        cpuSamples: [0, 1000, 2000, 3000].map((atMs) => ({
          atMs,
          treeCpuSeconds: atMs / 2000,
          // The tree's time, split: Node a fifth of it, renderers the rest.
          cpuSecondsByKind: {
            node: atMs / 10_000,
            browser: 0,
            renderer: (atMs / 2000) * 0.8,
            gpu: 0,
            utility: 0,
            zygote: 0,
            other: 0,
          },
          machineBusySeconds: atMs / 1000,
          machineTotalSeconds: (atMs / 1000) * 2,
        })),
      },
    };
    const statistics = computeRunStatistics([run], pages, warmupUrls);
    expect(statistics?.cpuMsPerPage).toBeCloseTo(250);
    expect(statistics?.cpuMsPerPageByKind?.node).toBeCloseTo(50);
    expect(statistics?.cpuMsPerPageByKind?.renderer).toBeCloseTo(200);
    expect(statistics?.cpuMsPerPageByKind?.browser).toBe(0);
    expect(statistics?.machineBusyPercent).toBeCloseTo(50);
    expect(statistics?.peakRssBytes).toBe(3);
  });

  it("splits the memory peak by process kind as the highest round's peak sample did", () => {
    const roundWith = (rendererBytes: number): ContenderRun => ({
      label: 'x',
      records: [renderedRecord(2, 1000, 1500)],
      usage: {
        peakRssBytes: 0,
        peakPssBytes: rendererBytes + 1,
        peakPssByKind: pssSplit(rendererBytes),
        cpuSamples: [],
      },
    });
    const statistics = computeRunStatistics(
      [roundWith(10), roundWith(30), roundWith(20)],
      pages,
      warmupUrls,
    );
    expect(statistics?.peakPssBytes).toBe(31);
    expect(statistics?.peakPssByKind?.renderer).toEqual({ bytes: 30, processCount: 4 });
    expect(statistics?.peakPssByKind?.node).toEqual({ bytes: 1, processCount: 1 });
  });
});

/** A PSS split: one Node process of 1 byte, four renderers of `rendererBytes` together. */
function pssSplit(rendererBytes: number): Record<ProcessKind, KindPss> {
  return byProcessKind((kind) => {
    if (kind === 'node') return { bytes: 1, processCount: 1 };
    if (kind === 'renderer') return { bytes: rendererBytes, processCount: 4 };
    return { bytes: 0, processCount: 0 };
  });
}

describe('percentile', () => {
  it('is nearest-rank', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(percentile([7], 0.5)).toBe(7);
  });
});
