import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The parts of a V8 .cpuprofile this summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  label: string;
  milliseconds: number;
  share: number;
}

export interface ProfileSummary {
  totalMilliseconds: number;
  /** Sampled time the thread was not idle (what tells a busy thread from a helper thread). */
  busyMilliseconds: number;
  /** Time spent in the function itself, heaviest first. */
  selfTime: ProfileLine[];
  /** Time spent in the function and everything it called, heaviest first. */
  totalTime: ProfileLine[];
}

/**
 * Summarises a CPU profile (`node --cpu-prof`): where the process spent its time, by function,
 * self and inclusive. `root` shortens file paths; `pattern` keeps inclusive lines of matching
 * functions only (e.g. the service's own code).
 */
function summarizeCpuProfile(
  path: string,
  options: { root: string; lineCount: number; inclusivePattern?: RegExp },
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const sampled = new Map<number, number>();
  let totalMicroseconds = 0;
  profile.samples.forEach((nodeId, index) => {
    // The first delta runs from the profiler's start to its first sample: a profiler started on a
    // running process spends it listing the code already compiled (~0.3 s on the scheduler at 1M
    // URLs), which no sample describes.
    const delta = index === 0 ? 0 : (profile.timeDeltas[index] ?? 0);
    sampled.set(nodeId, (sampled.get(nodeId) ?? 0) + delta);
    totalMicroseconds += delta;
  });
  const labelOf = (nodeId: number) => {
    const { functionName, url, lineNumber } = (nodes.get(nodeId) as CpuProfile['nodes'][number])
      .callFrame;
    const file = url.startsWith('file://') ? relative(options.root, url.slice(7)) : url;
    // TypeScript run through tsx has no useful line numbers in the profile: name the file only.
    const where = file.endsWith('.ts') ? file : `${file}:${lineNumber + 1}`;
    // Neither name nor script: a native function called from JavaScript (lmdb-js's reads and
    // cursor moves mostly), which V8 samples as an anonymous frame.
    if (functionName === '' && file === '') return '(native function)';
    return `${functionName || '(anonymous)'}${file ? ` ${where}` : ''}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [nodeId, microseconds] of sampled) {
    const label = labelOf(nodeId);
    self.set(label, (self.get(label) ?? 0) + microseconds);
    const seen = new Set<string>();
    for (let current: number | undefined = nodeId; current !== undefined;) {
      const ancestor = labelOf(current);
      if (!seen.has(ancestor)) {
        seen.add(ancestor);
        inclusive.set(ancestor, (inclusive.get(ancestor) ?? 0) + microseconds);
      }
      current = parents.get(current);
    }
  }
  const lines = (times: Map<string, number>, pattern?: RegExp): ProfileLine[] =>
    [...times]
      .filter(([label]) => pattern === undefined || pattern.test(label))
      .sort((left, right) => right[1] - left[1])
      .slice(0, options.lineCount)
      .map(([label, microseconds]) => ({
        label,
        milliseconds: microseconds / 1000,
        share: totalMicroseconds === 0 ? 0 : microseconds / totalMicroseconds,
      }));
  return {
    totalMilliseconds: totalMicroseconds / 1000,
    busyMilliseconds: (totalMicroseconds - (self.get('(idle)') ?? 0)) / 1000,
    selfTime: lines(self),
    totalTime: lines(inclusive, options.inclusivePattern),
  };
}

function formatProfileSummary(summary: ProfileSummary, title: string): string {
  const format = (line: ProfileLine) =>
    `${line.milliseconds.toFixed(0).padStart(8)} ms ${(line.share * 100).toFixed(1).padStart(5)} %  ${line.label}`;
  return [
    `${title} — ${(summary.totalMilliseconds / 1000).toFixed(1)} s sampled, ` +
      `${(summary.busyMilliseconds / 1000).toFixed(1)} s busy`,
    '',
    'self time (the function itself):',
    ...summary.selfTime.map(format),
    '',
    'total time (with what it called), the service code:',
    ...summary.totalTime.map(format),
    '',
  ].join('\n');
}

/**
 * The summary of the busiest profile in `directory`, titled by `titleOf(file name)`; undefined when
 * the directory holds none. Node writes one profile per thread, and a bench may start a process
 * more than once: the busiest is the main thread of the process that worked most (tsx's loader
 * thread idles).
 */
function summarizeBusiestProfile(
  directory: string,
  titleOf: (fileName: string) => string,
): string | undefined {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  const busiest = names
    .map((name) => ({
      name,
      summary: summarizeCpuProfile(join(directory, name), {
        root: process.cwd(),
        lineCount: 30,
        inclusivePattern: /services\//,
      }),
    }))
    .sort((left, right) => right.summary.busyMilliseconds - left.summary.busyMilliseconds)[0];
  return busiest === undefined
    ? undefined
    : formatProfileSummary(busiest.summary, titleOf(busiest.name));
}

/**
 * Summarises the busiest profile in `profileDirectory` into `summaryPath` and prints its head with
 * where the whole summary is; answers whether there was a profile to summarise.
 */
export function saveAndPrintBusiestProfile(
  profileDirectory: string,
  summaryPath: string,
  titleOf: (fileName: string) => string,
): boolean {
  const text = summarizeBusiestProfile(profileDirectory, titleOf);
  if (text === undefined) return false;
  writeFileSync(summaryPath, text);
  process.stdout.write(
    `\n${text.split('\n').slice(0, 20).join('\n')}\n… (whole summary: ${summaryPath})\n`,
  );
  return true;
}
