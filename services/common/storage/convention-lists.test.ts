import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNameWords, parseConvention } from '../../../scripts/gate/convention-model';
import {
  ABBREVIATION_WHITELIST,
  BOOLEAN_PREFIXES,
  DURATION_WORDS,
  FORBIDDEN_TRUNCATIONS,
  GRANDFATHERED_NAMES,
  SHORT_WORDS,
  STANDARD_NAMES,
  TABLE_NAME_SUFFIXES,
  UNIT_SUFFIXES,
} from './convention-lists';
import { findNamingViolation } from './naming-convention';

/*
 * convention-lists.ts copies CONVENTION.md's lists for run time. These tests read the document with
 * the gate's own parser: when they fail, CONVENTION.md changed, so copy the lists shown in the diff
 * into convention-lists.ts (never the other way round).
 */
const convention = parseConvention(
  readFileSync(join(__dirname, '..', '..', '..', 'CONVENTION.md'), 'utf8'),
);
const sorted = (values: Iterable<string>) => [...values].sort();

test('convention-lists.ts holds exactly the lists of CONVENTION.md', () => {
  expect(convention.findings).toEqual([]);
  expect({
    allowedShortWords: sorted(convention.allowedShortWords),
    truncations: sorted(convention.truncations.map((truncation) => truncation.words.join('_'))),
    durationWords: sorted(convention.durationWords),
    unitSuffixes: sorted(convention.unitSuffixes),
    booleanPrefixes: sorted(convention.booleanPrefixes),
    tableSuffixes: sorted(convention.tableSuffixes),
    grandfatheredNames: sorted(convention.grandfatheredNames),
  }).toEqual({
    allowedShortWords: sorted([...ABBREVIATION_WHITELIST, ...STANDARD_NAMES, ...SHORT_WORDS]),
    truncations: sorted(FORBIDDEN_TRUNCATIONS),
    durationWords: sorted(DURATION_WORDS),
    unitSuffixes: sorted(UNIT_SUFFIXES),
    booleanPrefixes: sorted(BOOLEAN_PREFIXES),
    tableSuffixes: sorted(TABLE_NAME_SUFFIXES),
    grandfatheredNames: sorted(GRANDFATHERED_NAMES),
  });
});

test('the storage word rules give the same verdict as the gate', () => {
  const names = [
    'url_task',
    'domain_rule_replica',
    'robots_txt_object',
    'url_due_index',
    'min_interval_ms',
    'is_leased',
    'max_concurrent_count',
    'http_status_code',
    'etag',
    'lang',
    'priority_rank',
    'sched_task',
    'domain_stats_runtime',
    'retry_cnt',
    'config_value',
    'config_value_list',
    'concurrency_config',
    'url_q_task',
    'ab',
    'crs_url_task',
    'userName',
    'user-name',
    'x2',
    'web_page_object',
    'info',
    'not_before_at',
  ];
  const verdicts = (check: (name: string) => boolean) =>
    Object.fromEntries(names.map((name) => [name, check(name)]));
  expect(verdicts((name) => findNamingViolation(name) === undefined)).toEqual(
    verdicts((name) => checkNameWords(name, convention).length === 0),
  );
});
