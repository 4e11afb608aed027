import { abSideSettingsLines, abSideSettingsOf } from './ab-side-settings';

describe('abSideSettingsOf', () => {
  it('reads flags and environment of the side asked for, and none of the other', () => {
    const environment = {
      BENCH_AB_HEAD_NODE_FLAGS: ' --max-semi-space-size=32   --no-opt ',
      BENCH_AB_HEAD_ENV: 'MALLOC_TRIM_THRESHOLD_=1073741824 EMPTY= WITH_EQUALS=a=b',
      BENCH_AB_BASE_NODE_FLAGS: '--stack-size=2000',
    };
    expect(abSideSettingsOf('head', environment)).toEqual({
      nodeFlags: ['--max-semi-space-size=32', '--no-opt'],
      environment: { MALLOC_TRIM_THRESHOLD_: '1073741824', EMPTY: '', WITH_EQUALS: 'a=b' },
    });
    expect(abSideSettingsOf('base', environment)).toEqual({
      nodeFlags: ['--stack-size=2000'],
      environment: {},
    });
  });

  it('is empty when nothing is set', () => {
    expect(abSideSettingsOf('head', {})).toEqual({ nodeFlags: [], environment: {} });
  });

  it('refuses a flag without its dashes and an environment word without a name', () => {
    expect(() =>
      abSideSettingsOf('head', { BENCH_AB_HEAD_NODE_FLAGS: 'max-semi-space-size=32' }),
    ).toThrow('BENCH_AB_HEAD_NODE_FLAGS: "max-semi-space-size=32" is not a Node flag');
    expect(() => abSideSettingsOf('base', { BENCH_AB_BASE_ENV: 'A=1 =2' })).toThrow(
      'BENCH_AB_BASE_ENV: "=2" is not NAME=value',
    );
    expect(() => abSideSettingsOf('base', { BENCH_AB_BASE_ENV: 'LONELY' })).toThrow(
      'BENCH_AB_BASE_ENV: "LONELY" is not NAME=value',
    );
  });
});

describe('abSideSettingsLines', () => {
  it('says what each side with settings starts with: flags, then NAME=value', () => {
    const none = { nodeFlags: [], environment: {} };
    expect(
      abSideSettingsLines({
        base: none,
        head: { nodeFlags: ['--no-opt'], environment: { A: '1', B: '' } },
      }),
    ).toEqual(['head starts with --no-opt A=1 B=']);
    expect(abSideSettingsLines({ base: none, head: none })).toEqual([]);
  });
});
