import { CONTRACT_FILE } from './contract-model';
import { describeLocation, finding, type Finding, type SourceLocation } from './finding';
import { GENERATED_DIRECTORY, SERVICES_DIRECTORY, type GateContext } from './gate-context';
import { scanGoSource, type GoStruct } from './go-source';
import { closestName, normalizeName } from './name-similarity';

/*
 * go-json-tags: CONVENTION.md's rule taken literally — a Go struct's json tag is byte for byte a
 * field name of CONTRACT.md, with no case or separator conversion. A struct named like a
 * `#### Schema` table (the generated client's models) must use exactly that table's names and have
 * one for every row; any other struct's tags must be CONTRACT.md field names. Go string literals
 * that spell a contract name in another case (`"workerId"` in a query or a map key) are drift
 * too, as in generated TypeScript. `_test.go` files are exempt: their structs decode the OpenAPI
 * document itself (`requestBody`, `$ref`), never a payload.
 */

const GO_DIRECTORIES = [GENERATED_DIRECTORY, SERVICES_DIRECTORY];
const STRING_WORD = /[A-Za-z_][\w]*/g;

export function checkGoJsonTags(context: GateContext): Finding[] {
  const contract = context.contract;
  if (contract === undefined) {
    return [];
  }
  const fieldNames = new Set<string>();
  for (const table of contract.schemaTables.values()) {
    table.rows.forEach((row) => fieldNames.add(row.name));
  }
  for (const table of contract.parameterTables.values()) {
    table.rows.forEach((row) => fieldNames.add(row.name));
  }
  const byNormalized = new Map<string, string>();
  for (const name of [...context.contractNames.fieldNames, ...context.contractNames.enumValues]) {
    if (name.includes('_')) byNormalized.set(normalizeName(name), name);
  }
  // Schema and other component names are Go type names (`FailReason` in a message), not drift.
  const exempt = context.contractNames.componentNames;
  const findings: Finding[] = [];
  const report = (location: SourceLocation, message: string, suggestion?: string) =>
    findings.push(finding('go-json-tags', location, message, suggestion));

  for (const file of goFiles(context)) {
    const source = scanGoSource(context.files.read(file) ?? '');
    for (const struct of source.structs) {
      const table = contract.schemaTables.get(struct.name);
      const rowNames = table?.rows.map((row) => row.name);
      for (const tag of struct.tags) {
        if (tag.name === '-' || tag.name === '') continue;
        const location = { file, line: tag.line, column: tag.column };
        if (rowNames !== undefined && table !== undefined) {
          if (!rowNames.includes(tag.name)) {
            report(
              location,
              `json tag \`${tag.name}\` of struct \`${struct.name}\` is not a field of ` +
                `${CONTRACT_FILE}'s "#### Schema \`${struct.name}\`" (${describeLocation(table.location)}); ` +
                'Go json tags are the contract names verbatim',
              closestName(tag.name, rowNames),
            );
          }
        } else if (!fieldNames.has(tag.name)) {
          report(
            location,
            `json tag \`${tag.name}\` of struct \`${struct.name}\` is no field name of ${CONTRACT_FILE}; ` +
              'Go json tags are the contract names verbatim',
            closestName(tag.name, fieldNames),
          );
        }
      }
      if (table !== undefined) {
        reportMissingRows(
          file,
          struct,
          table.rows.map((row) => row.name),
          report,
        );
      }
    }
    for (const literal of source.strings) {
      for (const match of literal.raw.matchAll(STRING_WORD)) {
        const contractName = byNormalized.get(normalizeName(match[0]));
        if (contractName !== undefined && contractName !== match[0] && !exempt.has(match[0])) {
          report(
            { file, line: literal.line, column: literal.column + (match.index ?? 0) },
            `string \`${match[0]}\` is the contract name \`${contractName}\` in another case; Go ` +
              'code names wire data by its wire name (templates: `{{baseName}}`)',
            contractName,
          );
        }
      }
    }
  }
  return findings;
}

function reportMissingRows(
  file: string,
  struct: GoStruct,
  rowNames: string[],
  report: (location: SourceLocation, message: string) => void,
): void {
  const tagged = new Set(struct.tags.map((tag) => tag.name));
  const missing = rowNames.filter((name) => !tagged.has(name));
  if (missing.length > 0) {
    report(
      { file, line: struct.line, column: struct.column },
      `struct \`${struct.name}\` has no json tag for ${missing.map((name) => `\`${name}\``).join(', ')} ` +
        `of ${CONTRACT_FILE}'s "#### Schema \`${struct.name}\`"; the Go client would drop ` +
        (missing.length === 1 ? 'that field' : 'those fields'),
    );
  }
}

function goFiles(context: GateContext): string[] {
  return GO_DIRECTORIES.flatMap((directory) =>
    context.files.list(directory, ['.go']).filter((file) => !file.endsWith('_test.go')),
  );
}
