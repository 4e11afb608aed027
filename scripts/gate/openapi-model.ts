import type { Node } from 'yaml';
import type { ContractType, ScalarType, TypeTraits } from './contract-types';
import { finding, type Finding, type SourceLocation } from './finding';
import {
  duplicateEntries,
  entriesOf,
  entryAt,
  isNullScalar,
  isTrue,
  itemsOf,
  scalarText,
  valueAt,
  YamlFile,
  type YamlEntry,
} from './yaml-nodes';

/*
 * The names and shapes of openapi/*.yaml, with the position of every name. Component schemas are
 * keyed by name alone (names are unique across the four documents, and `./components.yaml#/…`
 * references resolve by that name); `allOf` compositions are flattened and an `allOf` wrapping a
 * single `$ref` resolves to the referenced schema. The contract's nullable reference —
 * `anyOf: [{$ref}, {type: …, nullable: true, enum: [null]}]` — is the referenced schema, nullable.
 */

export interface SpecEnumValue {
  value: string;
  location: SourceLocation;
}

export type SpecType =
  | { kind: 'scalar'; scalar: ScalarType }
  | { kind: 'enum'; values: SpecEnumValue[]; schema: string | undefined }
  | { kind: 'object'; schema: string | undefined }
  | { kind: 'array'; items: SpecType }
  | { kind: 'unknown'; description: string };

export interface SpecProperty {
  schemaName: string;
  name: string;
  location: SourceLocation;
  type: SpecType;
  isRequired: boolean;
  isNullable: boolean;
  /** `deprecated: true` on the property. */
  isDeprecated: boolean;
}

export interface SpecSchema {
  name: string;
  location: SourceLocation;
  properties: SpecProperty[];
  /** Set for a named enum schema such as `FailReason`. */
  enumValues: SpecEnumValue[] | undefined;
}

export interface SpecParameter {
  name: string;
  in: string;
  location: SourceLocation;
  type: SpecType;
  isRequired: boolean;
  isDeprecated: boolean;
}

export interface SpecOperation {
  /** `GET /v1/lease`: how CONTRACT.md's `#### Parameters` headings name it. */
  key: string;
  operationId: string | undefined;
  location: SourceLocation;
  parameters: SpecParameter[];
  hasRequestBody: boolean;
  /** Component schemas named by `$ref` directly in the request body's and responses' content. */
  requestBodySchemas: string[];
  responseSchemas: string[];
}

export interface OpenApiModel {
  files: string[];
  schemas: Map<string, SpecSchema>;
  operations: SpecOperation[];
  /** Every name under `components.*` (schemas, responses, parameters, security schemes, …). */
  componentNames: Set<string>;
  /** The values of every `x-error-codes` list: error_code values declared per response. */
  declaredErrorCodes: SpecEnumValue[];
  /** Problems reading the documents (syntax errors, broken references, unbindable schemas). */
  findings: Finding[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const SCALARS: Record<string, ScalarType> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
};

/** Properties (with the file each was written in) and required names of an object schema. */
interface ObjectParts {
  properties: Array<{ entry: YamlEntry; yaml: YamlFile }>;
  required: string[];
}

interface RawSchema {
  name: string;
  node: Node;
  keyNode: Node;
  yaml: YamlFile;
}

export function loadOpenApi(documents: Array<{ file: string; text: string }>): OpenApiModel {
  return new OpenApiReader(documents).read();
}

class OpenApiReader {
  readonly #files: YamlFile[] = [];
  readonly #raw = new Map<string, RawSchema>();
  readonly #findings: Finding[] = [];
  readonly #schemas = new Map<string, SpecSchema>();
  readonly #fileNames: string[];

  constructor(documents: Array<{ file: string; text: string }>) {
    this.#fileNames = documents.map((document) => document.file);
    for (const document of documents) {
      const yaml = new YamlFile(document.file, document.text);
      if (yaml.error !== undefined) {
        this.#findings.push(
          finding(
            'contract-coverage',
            yaml.error.location,
            `${document.file} is not valid YAML (${yaml.error.message}); its names cannot be checked`,
          ),
        );
        continue;
      }
      this.#files.push(yaml);
    }
  }

  read(): OpenApiModel {
    for (const yaml of this.#files) {
      for (const entry of entriesOf(valueAt(valueAt(yaml.root, 'components'), 'schemas'))) {
        this.#addRawSchema(entry, yaml);
        this.#reportDuplicateProperties(valueAt(entry.value, 'properties'), yaml);
      }
    }
    for (const raw of this.#raw.values()) {
      this.#schemas.set(raw.name, this.#readSchema(raw));
    }
    const operations = this.#files.flatMap((yaml) => this.#readOperations(yaml));
    const declaredErrorCodes = this.#files.flatMap((yaml) => collectErrorCodes(yaml, yaml.root));
    const componentNames = new Set(
      this.#files.flatMap((yaml) =>
        entriesOf(valueAt(yaml.root, 'components')).flatMap((section) =>
          entriesOf(section.value).map((entry) => entry.key),
        ),
      ),
    );
    return {
      files: this.#fileNames,
      schemas: this.#schemas,
      componentNames,
      operations,
      declaredErrorCodes,
      findings: this.#findings,
    };
  }

  /** A repeated property silently replaces the first one when the document is read as JSON. */
  #reportDuplicateProperties(properties: Node | null, yaml: YamlFile): void {
    for (const entry of duplicateEntries(properties)) {
      this.#findings.push(
        finding(
          'contract-coverage',
          yaml.locationOf(entry.keyNode),
          `property \`${entry.key}\` appears twice; the second silently replaces the first`,
        ),
      );
    }
  }

  #addRawSchema(entry: YamlEntry, yaml: YamlFile): void {
    const existing = this.#raw.get(entry.key);
    if (existing !== undefined) {
      this.#findings.push(
        finding(
          'contract-coverage',
          yaml.locationOf(entry.keyNode),
          `schema \`${entry.key}\` is also defined at ${existing.yaml.file}; schema names must be ` +
            'unique across openapi/ because CONTRACT.md binds tables by name',
        ),
      );
      return;
    }
    if (entry.value !== null) {
      this.#raw.set(entry.key, {
        name: entry.key,
        node: entry.value,
        keyNode: entry.keyNode,
        yaml,
      });
    }
  }

  #readSchema(raw: RawSchema): SpecSchema {
    const parts = this.#objectParts(raw.node, raw.yaml, new Set([raw.name]));
    const required = new Set(parts.required);
    // A repeated property name: the last one wins, as when the document is read as JSON.
    const lastByName = new Map(parts.properties.map((part) => [part.entry.key, part]));
    const properties = [...lastByName.values()].map(({ entry, yaml }) => {
      const described = this.#describe(entry.value, yaml);
      return {
        schemaName: raw.name,
        name: entry.key,
        location: yaml.locationOf(entry.keyNode),
        type: described.type,
        isRequired: required.has(entry.key),
        isNullable: described.isNullable,
        isDeprecated: isTrue(valueAt(entry.value, 'deprecated')),
      };
    });
    const enumNode = valueAt(raw.node, 'enum');
    return {
      name: raw.name,
      location: raw.yaml.locationOf(raw.keyNode),
      properties,
      enumValues: enumNode === null ? undefined : enumValuesOf(enumNode, raw.yaml),
    };
  }

  /** Own properties and `required`, plus those of every `allOf` part (referenced or inline). */
  #objectParts(node: Node | null, yaml: YamlFile, visiting: Set<string>): ObjectParts {
    const properties = entriesOf(valueAt(node, 'properties')).map((entry) => ({ entry, yaml }));
    const required = itemsOf(valueAt(node, 'required')).flatMap((item) => scalarText(item) ?? []);
    for (const part of itemsOf(valueAt(node, 'allOf'))) {
      const parts =
        valueAt(part, '$ref') === null
          ? this.#objectParts(part, yaml, visiting)
          : this.#referencedParts(part, yaml, visiting);
      properties.push(...parts.properties);
      required.push(...parts.required);
    }
    return { properties, required };
  }

  #referencedParts(part: Node, yaml: YamlFile, visiting: Set<string>): ObjectParts {
    const target = this.#referenced(part, yaml);
    return target === undefined || visiting.has(target.name)
      ? { properties: [], required: [] }
      : this.#objectParts(target.node, target.yaml, new Set([...visiting, target.name]));
  }

  /** The named schema a `{ $ref: … }` node points at; reports a reference that resolves nowhere. */
  #referenced(node: Node | null, yaml: YamlFile): RawSchema | undefined {
    const reference = scalarText(valueAt(node, '$ref'));
    if (reference === undefined) {
      return undefined;
    }
    const name = schemaNameOf(reference);
    const target = name === undefined ? undefined : this.#raw.get(name);
    if (target === undefined) {
      this.#findings.push(
        finding(
          'contract-coverage',
          yaml.locationOf(valueAt(node, '$ref') ?? (node as Node)),
          `\`$ref: ${reference}\` does not resolve to a component schema in openapi/`,
        ),
      );
    }
    return target;
  }

  #describe(node: Node | null, yaml: YamlFile): { type: SpecType; isNullable: boolean } {
    const isNullable = isTrue(valueAt(node, 'nullable'));
    if (valueAt(node, '$ref') !== null) {
      const target = this.#referenced(node, yaml);
      if (target === undefined) {
        return { type: { kind: 'unknown', description: 'an unresolved $ref' }, isNullable };
      }
      const enumNode = valueAt(target.node, 'enum');
      const targetNullable = isTrue(valueAt(target.node, 'nullable'));
      return enumNode === null
        ? {
            type: { kind: 'object', schema: target.name },
            isNullable: isNullable || targetNullable,
          }
        : {
            type: {
              kind: 'enum',
              values: enumValuesOf(enumNode, target.yaml),
              schema: target.name,
            },
            isNullable: isNullable || targetNullable || itemsOf(enumNode).some(isNullScalar),
          };
    }
    const allOf = itemsOf(valueAt(node, 'allOf'));
    if (allOf.length === 1 && valueAt(node, 'properties') === null) {
      const inner = this.#describe(allOf[0], yaml);
      return { type: inner.type, isNullable: isNullable || inner.isNullable };
    }
    const nullableReference = nullableReferenceOf(node);
    if (nullableReference !== undefined) {
      return { type: this.#describe(nullableReference, yaml).type, isNullable: true };
    }
    for (const composition of ['allOf', 'oneOf', 'anyOf']) {
      if (valueAt(node, composition) !== null) {
        return {
          type: { kind: 'unknown', description: `a ${composition} composition` },
          isNullable,
        };
      }
    }
    const enumNode = valueAt(node, 'enum');
    if (enumNode !== null) {
      return {
        type: { kind: 'enum', values: enumValuesOf(enumNode, yaml), schema: undefined },
        isNullable: isNullable || itemsOf(enumNode).some(isNullScalar),
      };
    }
    const typeName = scalarText(valueAt(node, 'type'));
    if (typeName === 'array') {
      return {
        type: { kind: 'array', items: this.#describe(valueAt(node, 'items'), yaml).type },
        isNullable,
      };
    }
    if (typeName === 'object' || valueAt(node, 'properties') !== null) {
      this.#findings.push(
        finding(
          'contract-coverage',
          yaml.locationOf(node as Node),
          'an inline object schema has no name CONTRACT.md can bind a table to; move it to ' +
            'components.schemas and reference it',
        ),
      );
      return { type: { kind: 'object', schema: undefined }, isNullable };
    }
    if (typeName === 'string' && scalarText(valueAt(node, 'format')) === 'date-time') {
      return { type: { kind: 'scalar', scalar: 'string (date-time)' }, isNullable };
    }
    const scalar = typeName === undefined ? undefined : SCALARS[typeName];
    return scalar === undefined
      ? { type: { kind: 'unknown', description: `type ${typeName ?? '(none)'}` }, isNullable }
      : { type: { kind: 'scalar', scalar }, isNullable };
  }

  #readOperations(yaml: YamlFile): SpecOperation[] {
    const operations: SpecOperation[] = [];
    for (const pathEntry of entriesOf(valueAt(yaml.root, 'paths'))) {
      const shared = itemsOf(valueAt(pathEntry.value, 'parameters'));
      for (const methodEntry of entriesOf(pathEntry.value)) {
        if (!HTTP_METHODS.includes(methodEntry.key)) {
          continue;
        }
        const parameters = new Map<string, SpecParameter>();
        for (const node of [...shared, ...itemsOf(valueAt(methodEntry.value, 'parameters'))]) {
          const parameter = this.#readParameter(node, yaml);
          if (parameter !== undefined) {
            parameters.set(`${parameter.in} ${parameter.name}`, parameter);
          }
        }
        this.#checkInlineBodies(methodEntry.value, yaml);
        const requestBody = valueAt(methodEntry.value, 'requestBody');
        operations.push({
          key: `${methodEntry.key.toUpperCase()} ${pathEntry.key}`,
          operationId: scalarText(valueAt(methodEntry.value, 'operationId')),
          location: yaml.locationOf(methodEntry.keyNode),
          parameters: [...parameters.values()],
          hasRequestBody: requestBody !== null,
          requestBodySchemas: contentSchemaNames([requestBody]),
          responseSchemas: contentSchemaNames(
            entriesOf(valueAt(methodEntry.value, 'responses')).map((entry) => entry.value),
          ),
        });
      }
    }
    return operations;
  }

  #readParameter(node: Node, yaml: YamlFile): SpecParameter | undefined {
    const resolved = this.#resolveParameterReference(node, yaml);
    if (resolved === undefined) {
      return undefined;
    }
    const nameEntry = entryAt(resolved.node, 'name');
    const name = scalarText(nameEntry?.value);
    const location = resolved.yaml.locationOf(nameEntry?.value ?? resolved.node);
    if (name === undefined) {
      this.#findings.push(finding('contract-coverage', location, 'a parameter without a name'));
      return undefined;
    }
    const place = scalarText(valueAt(resolved.node, 'in')) ?? '';
    return {
      name,
      in: place,
      location,
      type: this.#describe(valueAt(resolved.node, 'schema'), resolved.yaml).type,
      isRequired: place === 'path' || isTrue(valueAt(resolved.node, 'required')),
      isDeprecated: isTrue(valueAt(resolved.node, 'deprecated')),
    };
  }

  /** Follows `$ref: '…#/components/parameters/X'` into the named document (or this one). */
  #resolveParameterReference(
    node: Node,
    yaml: YamlFile,
  ): { node: Node; yaml: YamlFile } | undefined {
    const reference = scalarText(valueAt(node, '$ref'));
    if (reference === undefined) {
      return { node, yaml };
    }
    const match = /^(?:\.\/)?([^#]*)#\/components\/parameters\/([^/]+)$/.exec(reference);
    const targetFile =
      match === null
        ? undefined
        : match[1] === ''
          ? yaml
          : this.#files.find((candidate) => candidate.file.endsWith(`/${match[1]}`));
    const target =
      match === null
        ? null
        : valueAt(valueAt(valueAt(targetFile?.root, 'components'), 'parameters'), match[2]);
    if (targetFile === undefined || target === null) {
      this.#findings.push(
        finding(
          'contract-coverage',
          yaml.locationOf(valueAt(node, '$ref') ?? node),
          `\`$ref: ${reference}\` does not resolve to a component parameter in openapi/`,
        ),
      );
      return undefined;
    }
    return { node: target, yaml: targetFile };
  }

  /** Request and response bodies must reference named schemas, or no table can cover them. */
  #checkInlineBodies(operation: Node | null, yaml: YamlFile): void {
    const bodies = [
      valueAt(operation, 'requestBody'),
      ...entriesOf(valueAt(operation, 'responses')).map((entry) => entry.value),
    ];
    for (const body of bodies) {
      for (const media of entriesOf(valueAt(body, 'content'))) {
        const schema = valueAt(media.value, 'schema');
        if (schema !== null && valueAt(schema, '$ref') === null) {
          this.#describe(schema, yaml);
        }
      }
    }
  }
}

/**
 * The `$ref` branch of `anyOf`/`oneOf: [{$ref: X}, {type: …, nullable: true, enum: [null]}]`, the
 * OpenAPI 3.0.3 way to say "an X or null" (`nullable` counts only next to `type`, so
 * `allOf: [$ref] + nullable` means nothing to a strict reader); undefined for any other node.
 */
function nullableReferenceOf(node: Node | null): Node | undefined {
  for (const composition of ['anyOf', 'oneOf']) {
    const branches = itemsOf(valueAt(node, composition));
    if (branches.length !== 2) continue;
    const reference = branches.find((branch) => valueAt(branch, '$ref') !== null);
    const onlyNull = branches.find((branch) => {
      const values = itemsOf(valueAt(branch, 'enum'));
      return isTrue(valueAt(branch, 'nullable')) && values.length === 1 && isNullScalar(values[0]);
    });
    if (reference !== undefined && onlyNull !== undefined) return reference;
  }
  return undefined;
}

/** The schema names that bodies' `content.*.schema.$ref` point at (a `$ref`'d response is skipped). */
function contentSchemaNames(bodies: Array<Node | null>): string[] {
  return bodies.flatMap((body) =>
    entriesOf(valueAt(body, 'content')).flatMap((media) => {
      const reference = scalarText(valueAt(valueAt(media.value, 'schema'), '$ref'));
      const name = reference === undefined ? undefined : schemaNameOf(reference);
      return name === undefined ? [] : [name];
    }),
  );
}

/** `./components.yaml#/components/schemas/HealthSignal` → `HealthSignal`. */
export function schemaNameOf(reference: string): string | undefined {
  return /#\/components\/schemas\/([^/]+)$/.exec(reference)?.[1];
}

function enumValuesOf(enumNode: Node, yaml: YamlFile): SpecEnumValue[] {
  return itemsOf(enumNode).flatMap((item) => {
    const value = scalarText(item);
    return value === undefined ? [] : [{ value, location: yaml.locationOf(item) }];
  });
}

/** Every `x-error-codes: [...]` value anywhere in the document. */
function collectErrorCodes(yaml: YamlFile, node: Node | null): SpecEnumValue[] {
  const found: SpecEnumValue[] = [];
  for (const entry of entriesOf(node)) {
    if (entry.key === 'x-error-codes' && entry.value !== null) {
      found.push(...enumValuesOf(entry.value, yaml));
    } else {
      found.push(...collectErrorCodes(yaml, entry.value));
    }
  }
  for (const item of itemsOf(node)) {
    found.push(...collectErrorCodes(yaml, item));
  }
  return found;
}

export function traitsOfSpecType(type: SpecType): TypeTraits {
  return {
    isBoolean: type.kind === 'scalar' && type.scalar === 'boolean',
    isNumeric: type.kind === 'scalar' && (type.scalar === 'integer' || type.scalar === 'number'),
    isDateTime: type.kind === 'scalar' && type.scalar === 'string (date-time)',
    isArray: type.kind === 'array',
  };
}

/** The CONTRACT.md `type` cell that would describe a spec type (for suggestions). */
export function contractTypeOf(type: SpecType, fieldName: string): ContractType | undefined {
  switch (type.kind) {
    case 'scalar':
      return type;
    case 'enum':
      return { kind: 'enum', field: fieldName, subset: undefined };
    case 'object':
      return type.schema === undefined ? undefined : { kind: 'object', schema: type.schema };
    case 'array': {
      const items =
        type.items.kind === 'enum' && type.items.schema !== undefined
          ? { kind: 'object' as const, schema: type.items.schema }
          : contractTypeOf(type.items, fieldName);
      return items === undefined ? undefined : { kind: 'array', items };
    }
    case 'unknown':
      return undefined;
  }
}
