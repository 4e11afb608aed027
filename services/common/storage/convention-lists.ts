/**
 * CONVENTION.md's lists, as the storage layer needs them at run time. CONVENTION.md is the only
 * place to edit them; this copy exists because deployed services cannot read the document, and
 * convention-lists.test.ts fails (printing the lists to paste here) as soon as the two differ.
 */

/** "Abbreviation whitelist (closed)". */
export const ABBREVIATION_WHITELIST = [
  'url',
  'xhr',
  'csr',
  'ssr',
  'tikv',
  'id',
  'http',
  'html',
  'dns',
  'tls',
  'ttl',
  'api',
  'dom',
  'ms',
  'txt',
] as const;

/** "Names that mirror an external standard". */
export const STANDARD_NAMES = ['rel', 'etag', 'lang', 'method'] as const;

/** "Short words": full words of three letters or fewer. */
export const SHORT_WORDS = [
  'at',
  'by',
  'of',
  'to',
  'is',
  'has',
  'min',
  'max',
  'raw',
  'new',
  'old',
  'key',
  'day',
  'age',
  'end',
  'log',
  'row',
  'due',
  'in',
  'not',
  'too',
  'for',
  'off',
  'low',
  'web',
] as const;

/** "Forbidden truncations"; an entry with `_` is a forbidden sequence of words. */
export const FORBIDDEN_TRUNCATIONS = [
  'sched',
  'stat',
  'stats',
  'hist',
  'conf',
  'cfg',
  'config_value',
  'idx',
  'cnt',
  'num',
  'msg',
  'req',
  'resp',
  'res',
  'ts',
  'tmp',
  'temp',
  'addr',
  'desc',
  'src',
  'dst',
  'err',
  'prev',
  'cur',
  'curr',
  'len',
  'attr',
  'param',
  'params',
  'info',
  'auth',
  'repl',
  'seq',
  'pct',
  'avg',
  'sec',
  'secs',
  'msec',
  'mins',
  'dur',
  'freq',
  'ver',
  'doc',
  'img',
  'btn',
  'usr',
  'pwd',
  'svc',
  'db',
] as const;

/** "Duration words": a numeric field with one of these words must end in a unit suffix. */
export const DURATION_WORDS = [
  'interval',
  'timeout',
  'duration',
  'delay',
  'ttl',
  'elapsed',
  'backoff',
  'latency',
  'period',
  'after',
] as const;

/** The unit suffixes the "Duration words" section names. */
export const UNIT_SUFFIXES = ['_ms', '_seconds', '_minutes', '_hours', '_days'] as const;

/** The prefixes the "Booleans carry a prefix" rule names. */
export const BOOLEAN_PREFIXES = ['is_', 'should_', 'has_'] as const;

/** "Table name suffixes (closed)": every table name ends in one, naming the table's one job. */
export const TABLE_NAME_SUFFIXES = [
  '_task',
  '_result',
  '_runtime',
  '_config',
  '_replica',
  '_rule',
  '_object',
  '_token',
  '_index',
  '_record',
] as const;

/** "Grandfathered names": fixed before the `_list` rule. */
export const GRANDFATHERED_NAMES = ['network_log', 'console_errors'] as const;
