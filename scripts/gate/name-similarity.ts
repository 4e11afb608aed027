/*
 * How close two names are. Drift rarely invents a new name; it bends an existing one: camelCase by a
 * generator (`timeoutMs`), a typo (`fetched_ta`), a reordering (`count_url`), a dropped unit or
 * suffix (`timeout`, `expires`), or another unit (`lease_ttl_ms`). The near-miss finder recognises
 * exactly those shapes; `closestName` is the looser did-you-mean used in messages.
 */

/** `minIntervalMS` → `min_interval_ms`; `Retry-After` → `retry_after`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/** Case and separators removed: `timeoutMs`, `TIMEOUT_MS` and `timeout_ms` all become `timeoutms`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

/*
 * Three rolling rows of the dynamic-programming table, reused across calls: the gate computes a
 * distance for every distinct key against every contract name, and allocation dominated the time.
 */
let beforePreviousRow = new Int32Array(64);
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps), giving
 * up early: any result above `limit` is returned as `limit + 1`.
 */
export function editDistance(left: string, right: string, limit = Number.MAX_SAFE_INTEGER): number {
  const width = right.length;
  if (Math.abs(left.length - width) > limit) {
    return limit + 1;
  }
  if (previousRow.length <= width) {
    beforePreviousRow = new Int32Array(width * 2);
    previousRow = new Int32Array(width * 2);
    currentRow = new Int32Array(width * 2);
  }
  let twoBack = beforePreviousRow;
  let oneBack = previousRow;
  let current = currentRow;
  for (let column = 0; column <= width; column += 1) {
    oneBack[column] = column;
  }
  for (let row = 1; row <= left.length; row += 1) {
    current[0] = row;
    let rowMinimum = row;
    const leftCode = left.charCodeAt(row - 1);
    const leftBeforeCode = row > 1 ? left.charCodeAt(row - 2) : -1;
    for (let column = 1; column <= width; column += 1) {
      const rightCode = right.charCodeAt(column - 1);
      let value = oneBack[column - 1] + (leftCode === rightCode ? 0 : 1);
      if (oneBack[column] + 1 < value) value = oneBack[column] + 1;
      if (current[column - 1] + 1 < value) value = current[column - 1] + 1;
      if (column > 1 && leftCode === right.charCodeAt(column - 2) && leftBeforeCode === rightCode) {
        if (twoBack[column - 2] + 1 < value) value = twoBack[column - 2] + 1;
      }
      current[column] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) {
      return limit + 1;
    }
    const recycled = twoBack;
    twoBack = oneBack;
    oneBack = current;
    current = recycled;
  }
  return oneBack[width];
}

/** A truncation must keep this much of the word to be recognised (`sched` → `scheduler`). */
const TRUNCATION_MINIMUM_LENGTH = 3;

/**
 * The candidate most like `name`, for a did-you-mean: same words in another case first, then the
 * only candidate `name` truncates, then the smallest edit distance within about a third of the
 * name's length.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const normalized = normalizeName(name);
  const extended = list.filter(
    (candidate) => candidate.length > name.length && candidate.startsWith(name),
  );
  if (
    name.length >= TRUNCATION_MINIMUM_LENGTH &&
    extended.length === 1 &&
    !list.some((candidate) => normalizeName(candidate) === normalized)
  ) {
    return extended[0];
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    if (candidate === name) {
      continue;
    }
    if (normalizeName(candidate) === normalized) {
      return candidate;
    }
    const distance = editDistance(name, candidate, limit);
    const isCloser =
      distance < bestDistance ||
      (distance === bestDistance && best !== undefined && candidate < best);
    if (distance <= limit && isCloser) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

export interface NearMiss {
  /** The contract name the key was probably meant to be. */
  contractName: string;
  /** Why it looks like that name, for the message. */
  reason: string;
}

/** Below this length an edit distance of 2 relates too many unrelated words (`url` / `uri`). */
const EDIT_DISTANCE_MINIMUM_LENGTH = 6;
const EDIT_DISTANCE_LIMIT = 2;

export interface NearMissOptions {
  /** `_ms`, `_seconds`, …: a name with another unit is a near miss. */
  unitSuffixes: readonly string[];
  /** `_count`, `_list`, `_at`: a name without one is a near miss. */
  otherSuffixes: readonly string[];
  /**
   * Other names of the contract (enum values, table names) that are never near misses themselves:
   * `url_task` is a table, not a typo of `url_hash`.
   */
  knownNames?: Iterable<string>;
}

/**
 * Finds the contract name a non-contract key is a near miss of: another case or separator, the same
 * words reordered, the name without its unit / `_count` / `_list` / `_at` suffix, the name with
 * another unit, or (for names of six characters or more) an edit distance of at most 2. Results are
 * cached per key, since the same keys recur across a code base.
 */
export class NearMissFinder {
  readonly #names: ReadonlySet<string>;
  readonly #knownNames: ReadonlySet<string>;
  readonly #byNormalized = new Map<string, string>();
  readonly #byWordSet = new Map<string, string>();
  readonly #bySuffixless = new Map<string, { name: string; suffix: string }>();
  readonly #byUnitStem = new Map<string, { name: string; unit: string }>();
  readonly #unitSuffixes: readonly string[];
  readonly #cache = new Map<string, NearMiss | undefined>();

  constructor(contractNames: Iterable<string>, options: NearMissOptions) {
    const { unitSuffixes, otherSuffixes } = options;
    this.#names = new Set(contractNames);
    this.#knownNames = new Set(options.knownNames ?? []);
    this.#unitSuffixes = unitSuffixes;
    for (const name of this.#names) {
      this.#byNormalized.set(normalizeName(name), name);
      this.#byWordSet.set(wordSetKey(name), name);
      for (const suffix of [...unitSuffixes, ...otherSuffixes]) {
        if (name.endsWith(suffix) && name.length > suffix.length) {
          this.#bySuffixless.set(name.slice(0, -suffix.length), { name, suffix });
        }
      }
      const unit = unitSuffixes.find((suffix) => name.endsWith(suffix));
      if (unit !== undefined) {
        this.#byUnitStem.set(name.slice(0, -unit.length), { name, unit });
      }
    }
  }

  isContractName(key: string): boolean {
    return this.#names.has(key);
  }

  find(key: string): NearMiss | undefined {
    if (!this.#cache.has(key)) {
      this.#cache.set(key, this.#search(key));
    }
    return this.#cache.get(key);
  }

  #search(key: string): NearMiss | undefined {
    if (this.#names.has(key) || this.#knownNames.has(key)) {
      return undefined;
    }
    const sameWords = this.#byNormalized.get(normalizeName(key));
    if (sameWords !== undefined) {
      return { contractName: sameWords, reason: 'the same words in another case or separator' };
    }
    const snake = toSnakeCase(key);
    const reordered = this.#byWordSet.get(wordSetKey(snake));
    if (reordered !== undefined) {
      return { contractName: reordered, reason: 'the same words in another order' };
    }
    const suffixless = this.#bySuffixless.get(snake);
    if (suffixless !== undefined) {
      return {
        contractName: suffixless.name,
        reason: `the contract name without its \`${suffixless.suffix}\` suffix`,
      };
    }
    const unit = this.#unitSuffixes.find((suffix) => snake.endsWith(suffix));
    const otherUnit =
      unit === undefined ? undefined : this.#byUnitStem.get(snake.slice(0, -unit.length));
    if (otherUnit !== undefined) {
      return {
        contractName: otherUnit.name,
        reason: `the contract name with \`${unit}\` instead of \`${otherUnit.unit}\``,
      };
    }
    return this.#closeByEdits(key);
  }

  #closeByEdits(key: string): NearMiss | undefined {
    if (key.length < EDIT_DISTANCE_MINIMUM_LENGTH) {
      return undefined;
    }
    let best: NearMiss | undefined;
    let bestDistance = EDIT_DISTANCE_LIMIT + 1;
    for (const name of this.#names) {
      if (name.length < EDIT_DISTANCE_MINIMUM_LENGTH) {
        continue;
      }
      const distance = editDistance(key, name, bestDistance - 1);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = { contractName: name, reason: `${distance} edit${distance === 1 ? '' : 's'} away` };
      }
    }
    return best;
  }
}

/** Names made of the same words in any order share this key. */
function wordSetKey(snakeName: string): string {
  return snakeName.split('_').filter(Boolean).sort().join('_');
}
