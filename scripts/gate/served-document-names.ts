import { CONTRACT_FILE, type ContractModel } from './contract-model';
import { describeLocation, finding, type Finding, type SourceLocation } from './finding';
import { GENERATED_DIRECTORY, type GateContext } from './gate-context';
import { closestName } from './name-similarity';
import { loadOpenApi, type SpecType } from './openapi-model';

/*
 * The served documents (generated/<service>/openapi.json: what /openapi.json and /docs answer, and
 * what the contract runtime validates with) are generated artifacts too, and a client generated
 * from one would carry its names. Every property, parameter and enum value in them must be the
 * CONTRACT.md name verbatim: a property a row of its schema's table, a parameter a row of its
 * operation's table, an enum value a row of an enum table. A document that cannot be read is a
 * finding as well. (That the document equals a fresh generation is `npm run generate:check`'s job.)
 */

const SERVED_DOCUMENT = 'openapi.json';

export function checkServedDocuments(context: GateContext): Finding[] {
  const contract = context.contract;
  if (contract === undefined) return [];
  const findings: Finding[] = [];
  const files = context.files
    .list(GENERATED_DIRECTORY, [SERVED_DOCUMENT])
    .filter((file) => file.split('/').length === 3);
  for (const file of files) {
    findings.push(...checkServedDocument(file, context.files.read(file) ?? '', contract));
  }
  return findings;
}

function checkServedDocument(file: string, text: string, contract: ContractModel): Finding[] {
  const findings: Finding[] = [];
  const report = (location: SourceLocation, message: string, suggestion?: string) =>
    findings.push(finding('generated-names', location, message, suggestion));
  const model = loadOpenApi([{ file, text }]);
  const unreadable = model.findings.find((item) => item.message.includes('is not valid YAML'));
  if (unreadable !== undefined) {
    report(unreadable, `${file} is not valid JSON; its names cannot be checked`);
    return findings;
  }
  const enumValues = new Set(
    [...contract.enumTables.values()].flatMap((table) => table.rows.map((row) => row.value)),
  );
  const checkEnum = (type: SpecType) => {
    const values = type.kind === 'enum' ? type.values : [];
    for (const value of values) {
      if (value.value !== 'null' && !enumValues.has(value.value)) {
        report(
          value.location,
          `enum value \`${value.value}\` of the served document is in no "#### Enum" table of ${CONTRACT_FILE}`,
          closestName(value.value, enumValues),
        );
      }
    }
    if (type.kind === 'array') checkEnum(type.items);
  };
  for (const schema of model.schemas.values()) {
    const table = contract.schemaTables.get(schema.name);
    const rowNames = table?.rows.map((row) => row.name) ?? [];
    for (const property of schema.properties) {
      if (table !== undefined && !rowNames.includes(property.name)) {
        report(
          property.location,
          `property \`${property.name}\` of schema \`${schema.name}\` in the served document is not a ` +
            `row of ${CONTRACT_FILE}'s "#### Schema \`${schema.name}\`" (${describeLocation(table.location)}); ` +
            'served names are the contract names verbatim',
          closestName(property.name, rowNames),
        );
      }
      checkEnum(property.type);
    }
    schema.enumValues?.forEach((value) =>
      checkEnum({ kind: 'enum', values: [value], schema: schema.name }),
    );
  }
  for (const operation of model.operations) {
    const table = contract.parameterTables.get(operation.key);
    const rowNames = table?.rows.map((row) => row.name) ?? [];
    for (const parameter of operation.parameters) {
      if (
        table !== undefined &&
        (parameter.in === 'query' || parameter.in === 'path') &&
        !rowNames.includes(parameter.name)
      ) {
        report(
          parameter.location,
          `${parameter.in} parameter \`${parameter.name}\` of ${operation.key} in the served document ` +
            `is not a row of ${CONTRACT_FILE}'s "#### Parameters \`${operation.key}\`"`,
          closestName(parameter.name, rowNames),
        );
      }
      checkEnum(parameter.type);
    }
  }
  return findings;
}
