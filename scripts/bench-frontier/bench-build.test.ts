import { benchRunFromOf, benchSourceRoot } from './bench-build';

describe('benchRunFromOf', () => {
  it('runs the build by default, as make run does', () => {
    expect(benchRunFromOf({})).toBe('dist');
  });

  it('takes dist or source as told', () => {
    expect(benchRunFromOf({ BENCH_FRONTIER_RUN_FROM: 'source' })).toBe('source');
    expect(benchRunFromOf({ BENCH_FRONTIER_RUN_FROM: 'dist' })).toBe('dist');
  });

  it('refuses anything else rather than measuring something unnamed', () => {
    expect(() => benchRunFromOf({ BENCH_FRONTIER_RUN_FROM: 'build' })).toThrow(
      /dist or source, not "build"/,
    );
  });
});

describe('benchSourceRoot', () => {
  it('runs the source tree itself when told source, building nothing', () => {
    expect(benchSourceRoot('/no/such/tree', 'source')).toBe('/no/such/tree');
  });
});
