/**
 * What one side of bench:frontier-ab starts its scheduler with besides its source tree: extra
 * Node flags and environment variables. With BENCH_AB_BASE naming the same commit as the tree,
 * they turn the A/B into a comparison of runtime settings alone — V8 flags, allocator variables,
 * a scheduler setting read from the environment — in the same alternating rounds.
 *
 *   BENCH_AB_HEAD_NODE_FLAGS='--max-semi-space-size=32'          (space-separated Node flags)
 *   BENCH_AB_BASE_ENV='MALLOC_TRIM_THRESHOLD_=1073741824 A=b'    (space-separated NAME=value)
 */
export interface AbSideSettings {
  /** Node flags after the scheduler's own (SERVICE_NODE_FLAGS), so they override them. */
  nodeFlags: string[];
  environment: Record<string, string>;
}

const ENVIRONMENT_ENTRY = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/** The settings of `side` from BENCH_AB_{HEAD,BASE}_NODE_FLAGS and _ENV in `environment`. */
export function abSideSettingsOf(
  side: 'base' | 'head',
  environment: NodeJS.ProcessEnv,
): AbSideSettings {
  const prefix = `BENCH_AB_${side.toUpperCase()}`;
  const nodeFlags = wordsOf(environment[`${prefix}_NODE_FLAGS`]);
  const notAFlag = nodeFlags.find((flag) => !flag.startsWith('--'));
  if (notAFlag !== undefined) {
    throw new Error(
      `${prefix}_NODE_FLAGS: "${notAFlag}" is not a Node flag (--name or --name=value)`,
    );
  }
  const entries = wordsOf(environment[`${prefix}_ENV`]).map((word) => {
    const match = ENVIRONMENT_ENTRY.exec(word);
    if (match === null) throw new Error(`${prefix}_ENV: "${word}" is not NAME=value`);
    return [match[1], match[2]] as const;
  });
  return { nodeFlags, environment: Object.fromEntries(entries) };
}

/** A line per side that has settings, e.g. `head starts with --no-opt A=1`, for the header. */
export function abSideSettingsLines(
  settings: Readonly<Record<'base' | 'head', AbSideSettings>>,
): string[] {
  return (['base', 'head'] as const).flatMap((side) => {
    const { nodeFlags, environment } = settings[side];
    const words = [
      ...nodeFlags,
      ...Object.entries(environment).map(([name, value]) => `${name}=${value}`),
    ];
    return words.length === 0 ? [] : [`${side} starts with ${words.join(' ')}`];
  });
}

function wordsOf(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter((word) => word !== '');
}
