import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveAndPrintBusiestProfile } from './cpu-profile-summary';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

/**
 * root → handle (a service file) → a native call; 10 samples after a start-up gap of 300 ms:
 * 6 in the native call, 3 in handle itself, 1 idle — 1 ms apart.
 */
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
    { id: 2, callFrame: frame('handle', 'file:///srv/services/x/handler.ts'), children: [3] },
    { id: 3, callFrame: frame('', '') },
    { id: 4, callFrame: frame('(idle)', '') },
  ],
  samples: [3, 3, 3, 3, 3, 3, 2, 2, 2, 4],
  timeDeltas: [300_000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('saveAndPrintBusiestProfile', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'profile-summary-'));
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(directory, { recursive: true, force: true });
  });

  it('summarises self and total time, leaving out the gap before the first sample', () => {
    writeFileSync(join(directory, 'one.cpuprofile'), JSON.stringify(profile));
    const summaryPath = join(directory, 'summary.txt');
    expect(saveAndPrintBusiestProfile(directory, summaryPath, (name) => `title ${name}`)).toBe(
      true,
    );
    const text = readFileSync(summaryPath, 'utf8');
    // Nine intervals of 1 ms: the 300 ms before the first sample count for nothing.
    expect(text).toContain('title one.cpuprofile — 0.0 s sampled');
    expect(text).toMatch(/5 ms +55\.6 %  \(native function\)/);
    expect(text).toMatch(/3 ms +33\.3 %  handle /);
    // Inclusive: handle with the native call it made.
    expect(text).toMatch(/8 ms +88\.9 %  handle /);
  });

  it('answers false when there is no profile', () => {
    expect(saveAndPrintBusiestProfile(directory, join(directory, 's.txt'), () => '')).toBe(false);
  });
});
