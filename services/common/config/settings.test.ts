import { Command } from 'commander';
import { addSettingOptions, parseAs, readSettings, setting, SettingError } from './settings';

const DEFINITIONS = {
  taskCount: setting(
    '--task-count <count>',
    'DEMO_TASK_COUNT',
    'tasks',
    parseAs.wholeNumber(1, 500),
    50,
  ),
  ratio: setting('--ratio <ratio>', 'DEMO_RATIO', 'a share', parseAs.number(0, 1), 0.5),
  peerUrl: setting('--peer-url <url>', 'DEMO_PEER_URL', 'a peer', parseAs.absoluteUrl),
  isLoopOn: setting('--loop <on|off>', 'DEMO_LOOP', 'the loop', parseAs.onOff, true),
  isVerbose: setting('--verbose', 'DEMO_VERBOSE', 'a switch', parseAs.onOff, false),
  hostList: setting('--hosts <list>', 'DEMO_HOSTS', 'hosts', parseAs.commaList, [] as string[]),
  workerId: setting(
    '--worker-id <id>',
    'DEMO_WORKER_ID',
    'worker',
    parseAs.matching(/^[a-z]{1,8}$/, 'of a–z, 1–8 letters'),
    'w',
  ),
};

function read(argv: string[], environment: NodeJS.ProcessEnv = {}) {
  const command = new Command('demo').exitOverride();
  addSettingOptions(command, DEFINITIONS);
  command.parse(['node', 'demo', ...argv]);
  return readSettings(DEFINITIONS, command.opts(), environment);
}

describe('settings', () => {
  it('takes a flag over a variable over the default', () => {
    expect(read([]).taskCount).toBe(50);
    expect(read([], { DEMO_TASK_COUNT: '7' }).taskCount).toBe(7);
    expect(read(['--task-count', '9'], { DEMO_TASK_COUNT: '7' }).taskCount).toBe(9);
    expect(read([]).peerUrl).toBeUndefined();
    expect(read([], { DEMO_PEER_URL: 'http://127.0.0.1:7101/' }).peerUrl).toBe(
      'http://127.0.0.1:7101',
    );
  });

  it('reads switches, on/off values and lists', () => {
    expect(read([]).isVerbose).toBe(false);
    expect(read(['--verbose']).isVerbose).toBe(true);
    expect(read([], { DEMO_VERBOSE: '1' }).isVerbose).toBe(true);
    expect(read(['--loop', 'off']).isLoopOn).toBe(false);
    expect(read([], { DEMO_HOSTS: ' a, b ,,c' }).hostList).toEqual(['a', 'b', 'c']);
    expect(read([]).hostList).toEqual([]);
  });

  it('refuses a wrong value naming the flag and the variable', () => {
    expect(() => read(['--ratio', '1.5'])).toThrow(
      new SettingError('--ratio / DEMO_RATIO must be a number from 0 to 1, got "1.5"'),
    );
    expect(() => read([], { DEMO_TASK_COUNT: '2.5' })).toThrow(/must be a whole number/);
    expect(() => read(['--loop', 'maybe'])).toThrow('--loop / DEMO_LOOP must be on or off');
    expect(() => read(['--worker-id', 'W-1'])).toThrow(
      '--worker-id / DEMO_WORKER_ID must be of a–z, 1–8 letters',
    );
    expect(() => read(['--peer-url', 'not a url'])).toThrow(/must be an absolute URL/);
  });

  it('accepts only plain decimals for numbers (not 1e2, 0x10 or Infinity)', () => {
    for (const text of ['1e2', '0x10', 'Infinity', '+5', '5.']) {
      expect(() => read(['--task-count', text])).toThrow(SettingError);
    }
    expect(read(['--ratio', '0.25']).ratio).toBe(0.25);
  });

  it('lists every flag with its variable and default in --help', () => {
    const command = new Command('demo');
    addSettingOptions(command, DEFINITIONS);
    const help = command.helpInformation();
    expect(help).toContain('--task-count <count>');
    expect(help).toContain('env DEMO_TASK_COUNT; default 50');
    expect(help).toContain('env DEMO_LOOP; default on');
    expect(help).toContain('env DEMO_HOSTS; default none');
    expect(help).toMatch(/--peer-url <url>\s+a peer \(env DEMO_PEER_URL\)/);
  });
});
