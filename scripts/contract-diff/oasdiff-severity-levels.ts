/*
 * How `npm run contract:diff` sets oasdiff's check levels (`--severity-levels`; the file format has
 * no comments, so the reasons live here and the file is written at run time). The contract's rule
 * (CONTRACT.md §七): fields are only added, never removed; a deprecated field stays; receivers
 * tolerate unknown fields; value sets grow only by adding values. Every warning and error fails the
 * diff; info passes.
 */

export type OasdiffLevel = 'err' | 'warn' | 'info' | 'none';

export const SEVERITY_OVERRIDES: ReadonlyArray<readonly [checkId: string, level: OasdiffLevel]> = [
  // Removals oasdiff lets pass and the add-only rule forbids: a removed request field or parameter
  // is data an old sender still sends and the new receiver silently drops; a removed optional
  // response field or enum value is something an old reader still looks for.
  ['request-property-removed', 'err'],
  ['request-parameter-removed', 'err'],
  ['response-optional-property-removed', 'err'],
  ['response-property-enum-value-removed', 'err'],
  ['response-mediatype-enum-value-removed', 'err'],
  ['request-read-only-property-enum-value-removed', 'err'],
  // Deprecated is a mark, not a licence to remove: a removal after deprecation still breaks.
  ['request-property-removed-with-deprecation', 'err'],
  ['request-parameter-removed-with-deprecation', 'err'],
  ['response-required-property-removed-with-deprecation', 'err'],
  ['api-removed-with-deprecation', 'err'],
  ['api-path-removed-with-deprecation', 'err'],
  // The contract has no sunset dates (a deprecated field is kept for good): deprecating without
  // one is the ordinary, additive way to retire a name.
  ['api-deprecated-sunset-missing', 'info'],
  ['request-parameter-deprecated-sunset-missing', 'info'],
  ['request-property-deprecated-sunset-missing', 'info'],
  ['response-property-deprecated-sunset-missing', 'info'],
  // Value sets grow by adding values (CONTRACT.md §九) and readers tolerate a value they do not
  // know yet, as they tolerate unknown fields.
  ['response-property-enum-value-added', 'info'],
];

/** The `--severity-levels` file: one `<check-id> <level>` per line. */
export function severityLevelsFile(): string {
  return SEVERITY_OVERRIDES.map(([checkId, level]) => `${checkId} ${level}\n`).join('');
}
