/**
 * Times that are not of the contract's form (YYYY-MM-DDTHH:MM:SSZ): fractions, lowercase, a
 * space, an offset or none, a non-digit, other separators, a full-width digit, nothing. Both the
 * form's reader and the date-time check built on it must answer nothing for each.
 */
export const OTHER_TIME_FORMS: readonly string[] = [
  '2026-08-15T07:47:52.5Z',
  '2026-08-15t07:47:52z',
  '2026-08-15 07:47:52Z',
  '2026-08-15T07:47:52+09:00',
  '2026-08-15T07:47:52',
  '2026-08-15T07:47:5aZ',
  '2026/08/15T07:47:52Z',
  '２026-08-15T07:47:52Z',
  '',
];
