import ts from 'typescript';
import { finding, type Finding, type SourceLocation } from './finding';
import {
  GENERATED_DIRECTORY,
  nodeLocation,
  TEMPLATES_DIRECTORY,
  type GateContext,
} from './gate-context';
import { normalizeName } from './name-similarity';
import { checkServedDocuments } from './served-document-names';

/*
 * generated-names: generated code uses wire names byte for byte. A generator that camelCases
 * (`{{paramName}}` instead of `{{baseName}}`, typescript-fetch's default) turns `worker_id` into
 * `workerId` — as a property key, an identifier or a string literal — and the receiver silently
 * ignores it. So every identifier, property name and string literal of generated/ (and every word
 * inside a string literal, which catches paths and messages) is compared with the contract names:
 * a token spelling a snake_case contract name in another case or with other separators is drift.
 * Ordinary generated identifiers (`operationId`, `successStatus`, `createSchedulerRouter`) pass
 * because no contract name has their words; schema names (`HealthSignal` vs `health_signal`) and
 * operationIds are legitimate type and method names and are exempt, as are the other component
 * names (`InvalidRequest` is a response, not a camelCased `invalid_request`). Only contract names with an
 * `_` are compared: a single lowercase word has no camelCase form to drift into.
 *
 * The served documents (generated/<service>/openapi.json) are checked against CONTRACT.md's tables
 * (served-document-names.ts). The templates are checked too, so a broken template is caught before the next generation: in a
 * `.mustache` file, the variables openapi-generator fills with language-mangled names. In a Go
 * template (templates/go-*) the mangled names are the Go identifiers (`WorkerId`) and legitimate in
 * code; there only a mangled name inside a string or a `json:"…"` tag is drift.
 */

/** Mustache variables holding openapi-generator's camelCased / PascalCased names. */
const MANGLED_VARIABLES = new Set([
  'paramName',
  'nameInCamelCase',
  'nameInPascalCase',
  'nameInLowerCase',
  'nameInSnakeCase',
]);

/** Sections over parameters or properties, inside which `{{name}}` is the mangled name too. */
const NAMED_ITEM_SECTIONS = new Set([
  'allParams',
  'bodyParams',
  'formParams',
  'headerParams',
  'optionalParams',
  'pathParams',
  'queryParams',
  'requiredParams',
  'allVars',
  'optionalVars',
  'parentVars',
  'readOnlyVars',
  'readWriteVars',
  'requiredVars',
  'vars',
]);

const MUSTACHE_TAG = /\{\{\{?\s*([#^/]?)\s*([\w.-]+)\s*\}?\}\}/g;
const WORD = /[A-Za-z_$][\w$]*/g;

export function checkGeneratedNames(context: GateContext): Finding[] {
  const names = context.contractNames;
  const byNormalized = new Map<string, string>();
  for (const name of [...names.fieldNames, ...names.enumValues]) {
    if (name.includes('_')) {
      byNormalized.set(normalizeName(name), name);
    }
  }
  const exempt = new Set<string>(names.componentNames);
  for (const operationId of names.clientWireArgumentCounts.keys()) {
    exempt.add(operationId);
    exempt.add(operationId[0].toUpperCase() + operationId.slice(1));
  }
  const driftOf = (token: string): string | undefined => {
    const contractName = byNormalized.get(normalizeName(token));
    return contractName === undefined || contractName === token || exempt.has(token)
      ? undefined
      : contractName;
  };
  const findings: Finding[] = [];
  for (const file of context.typescriptFiles(GENERATED_DIRECTORY)) {
    findings.push(...checkGeneratedFile(context.sourceFile(file), driftOf));
  }
  findings.push(...checkServedDocuments(context));
  for (const file of context.files.list(TEMPLATES_DIRECTORY, ['.mustache'])) {
    const isGoTemplate = file.startsWith(`${TEMPLATES_DIRECTORY}/go-`);
    findings.push(...checkTemplate(file, context.files.read(file) ?? '', isGoTemplate));
  }
  return findings;
}

function checkGeneratedFile(
  source: ts.SourceFile,
  driftOf: (token: string) => string | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const report = (location: SourceLocation, token: string, contractName: string, kind: string) => {
    findings.push(
      finding(
        'generated-names',
        location,
        `${kind} \`${token}\` is the contract name \`${contractName}\` in another case; generated ` +
          'code uses wire names byte for byte (templates: `{{baseName}}`, not `{{paramName}}`)',
        contractName,
      ),
    );
  };
  const visit = (node: ts.Node, kind = 'identifier'): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const contractName = driftOf(node.text);
      if (contractName !== undefined) {
        report(nodeLocation(source, node), node.text, contractName, kind);
      }
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      checkStringWords(source, node, driftOf, report);
    }
    const name = namedPropertyOf(node);
    if (name === undefined) {
      ts.forEachChild(node, visitChild);
    } else {
      ts.forEachChild(node, (child) => visit(child, child === name ? 'property' : 'identifier'));
    }
  };
  const visitChild = (child: ts.Node): void => visit(child);
  visit(source);
  return findings;
}

/** The name node of a property declaration, assignment or access, to label findings on it. */
function namedPropertyOf(node: ts.Node): ts.Node | undefined {
  return ts.isPropertyAssignment(node) ||
    ts.isShorthandPropertyAssignment(node) ||
    ts.isPropertySignature(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isPropertyAccessExpression(node)
    ? node.name
    : undefined;
}

/** Each identifier-like word of a string, at its own column (a literal may hold a path or message). */
function checkStringWords(
  source: ts.SourceFile,
  node: ts.StringLiteralLike | ts.TemplateLiteralToken,
  driftOf: (token: string) => string | undefined,
  report: (location: SourceLocation, token: string, contractName: string, kind: string) => void,
): void {
  const start = node.getStart(source);
  const raw = source.text.slice(start, node.getEnd());
  for (const match of raw.matchAll(WORD)) {
    const contractName = driftOf(match[0]);
    if (contractName !== undefined) {
      const position = source.getLineAndCharacterOfPosition(start + (match.index ?? 0));
      report(
        { file: source.fileName, line: position.line + 1, column: position.character + 1 },
        match[0],
        contractName,
        'string',
      );
    }
  }
}

function checkTemplate(file: string, text: string, isGoTemplate: boolean): Finding[] {
  const findings: Finding[] = [];
  const sections: string[] = [];
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1)];
  const locationOf = (offset: number): SourceLocation => {
    let line = lineStarts.length - 1;
    while (lineStarts[line] > offset) {
      line -= 1;
    }
    return { file, line: line + 1, column: offset - lineStarts[line] + 1 };
  };
  for (const match of text.matchAll(MUSTACHE_TAG)) {
    const [, sigil, variable] = match;
    if (sigil === '#' || sigil === '^') {
      sections.push(variable);
      continue;
    }
    if (sigil === '/') {
      sections.splice(sections.lastIndexOf(variable), 1);
      continue;
    }
    const isMangled =
      MANGLED_VARIABLES.has(variable) ||
      (variable === 'name' && sections.some((section) => NAMED_ITEM_SECTIONS.has(section)));
    const offset = match.index ?? 0;
    if (isMangled && (!isGoTemplate || isInsideQuotes(text, offset))) {
      findings.push(
        finding(
          'generated-names',
          locationOf(offset),
          `\`{{${variable}}}\` is openapi-generator's language-mangled name (e.g. \`workerId\` for ` +
            '`worker_id`); templates must emit the wire name',
          '{{baseName}}',
        ),
      );
    }
  }
  return findings;
}

/** Whether `offset` lies between double quotes on its line (a Go string or a struct tag's value). */
function isInsideQuotes(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset).replace(/\\./g, '');
  return (before.match(/"/g) ?? []).length % 2 === 1;
}
