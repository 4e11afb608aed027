import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { addContractDateTimeFormat } from './date-time-format';
import { normalizeOpenApiSchema } from './json-schema-normalizer';
import { quickCheckDefinitions, quickCheckForm } from './quick-check-form';
import {
  VariantExplainer,
  VIOLATION_ERROR_CODE_KEYWORD,
  withoutVariantRules,
} from './variant-violations';
import type { OperationDefinition } from './operation-definition';
import { findOperation, type JsonSchema, type OpenApiDocument } from './openapi-document';

/**
 * Compiled checks plus the normalized schema they were built from (for the unknown-field walk).
 * Every value runs `accepts`; only a refused one runs `validate`, whose errors explain it.
 */
export interface CompiledSchema {
  /**
   * The check every request pays for: stops at the first error and records nothing about it. The
   * explaining one builds an error object for every failing oneOf variant and nullable anyOf
   * branch of a valid value too — about half of what a frontier report's check allocated.
   */
  readonly accepts: ValidateFunction;
  /**
   * The explaining check (every error, with its schema): run on values `accepts` refused, and
   * compiled the first time it is read.
   */
  readonly validate: ValidateFunction;
  readonly schema: JsonSchema;
  /** The same check without variant rules (oneOf refinements); set for bodies and answers. */
  readonly validateWithoutVariants?: ValidateFunction;
}

/**
 * A check whose explaining validators are compiled when first asked for: most services refuse
 * few requests, and compiling them with the quick ones was half of a contract router's build (the
 * scheduler's, on its HTTP thread at start-up: ~130 ms instead of ~270, fiftieth session).
 */
class LazilyExplainedSchema implements CompiledSchema {
  #validate: ValidateFunction | undefined;
  #validateWithoutVariants: ValidateFunction | undefined;

  constructor(
    readonly accepts: ValidateFunction,
    readonly schema: JsonSchema,
    private readonly compileValidate: () => ValidateFunction,
    private readonly compileWithoutVariants?: () => ValidateFunction,
  ) {}

  get validate(): ValidateFunction {
    this.#validate ??= this.compileValidate();
    return this.#validate;
  }

  get validateWithoutVariants(): ValidateFunction | undefined {
    if (this.compileWithoutVariants === undefined) return undefined;
    this.#validateWithoutVariants ??= this.compileWithoutVariants();
    return this.#validateWithoutVariants;
  }
}

/** Why a value failed its check: the message, and the error_code a variant rule names. */
export interface ValidationFailure {
  message: string;
  /** Set when only a variant rule was broken and its schema names a code (x-violation-error-code). */
  violationErrorCode: string | undefined;
}

/**
 * Compiles, once per operation, the ajv validators the router needs: path and query parameters
 * (with type coercion — query strings are text), the request body (no coercion: JSON has types),
 * and the responses (used when response validation is switched on).
 *
 * Receivers tolerate unknown fields: nothing here sets additionalProperties or removeAdditional.
 */
export class ContractValidators {
  private readonly quickBodyAjv: Ajv;
  private readonly quickParameterAjv: Ajv;
  // The explaining ones, made with the first refusal that needs them (LazilyExplainedSchema).
  #bodyAjv: Ajv | undefined;
  #bodyWithoutVariantsAjv: Ajv | undefined;
  #parameterAjv: Ajv | undefined;
  #explainer: VariantExplainer | undefined;
  private readonly definitions: Record<string, unknown>;
  private readonly cache = new Map<string, CompiledSchema | null>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly documentId: string,
  ) {
    this.definitions = Object.fromEntries(
      Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
        name,
        normalizeOpenApiSchema(schema, documentId),
      ]),
    );
    // Bodies only: ajv coerces inside an `if` too, and query text coerced by the quick form's
    // `if: {type: 'null'}` before the other branch is tried would be a different value.
    this.quickBodyAjv = this.createAjv(
      { coerceTypes: false, isExplaining: false, isQuickForm: true },
      quickCheckDefinitions(this.definitions, documentId),
    );
    this.quickParameterAjv = this.createAjv({ coerceTypes: true, isExplaining: false });
  }

  private get bodyAjv(): Ajv {
    this.#bodyAjv ??= this.createAjv({ coerceTypes: false, isExplaining: true });
    return this.#bodyAjv;
  }

  private get bodyWithoutVariantsAjv(): Ajv {
    this.#bodyWithoutVariantsAjv ??= this.createAjv(
      { coerceTypes: false, isExplaining: true },
      withoutVariantRules(this.definitions) as Record<string, unknown>,
    );
    return this.#bodyWithoutVariantsAjv;
  }

  private get parameterAjv(): Ajv {
    this.#parameterAjv ??= this.createAjv({ coerceTypes: true, isExplaining: true });
    return this.#parameterAjv;
  }

  private get explainer(): VariantExplainer {
    this.#explainer ??= new VariantExplainer(this.bodyAjv);
    return this.#explainer;
  }

  /** Why path or query `values` failed `check.accepts`, e.g. `query.task_count: must be >= 1`. */
  describeParameterFailure(check: CompiledSchema, values: unknown, location: string): string {
    check.validate(values);
    return describeValidationErrors(location, check.validate.errors);
  }

  /**
   * Why `value` failed `check.accepts`: a value that breaks only variant rules is explained by the
   * variant it is closest to ("as failed, object_id: must be null") and carries the code the
   * rule's schema names; anything else is described without the variants' noise.
   */
  describeFailure(check: CompiledSchema, value: unknown, location: string): ValidationFailure {
    check.validate(value);
    const withoutVariants = check.validateWithoutVariants;
    if (withoutVariants === undefined || !withoutVariants(value)) {
      return {
        message: describeValidationErrors(
          location,
          (withoutVariants ?? check.validate).errors ?? check.validate.errors,
        ),
        violationErrorCode: undefined,
      };
    }
    const explanations = this.explainer.explain(check.validate.errors ?? []);
    const message = explanations
      .map((explanation) => {
        const where = describeValidationErrors(location, [
          { instancePath: explanation.instancePath, keyword: 'oneOf', message: '' } as ErrorObject,
        ]).replace(/: $/, '');
        const details = describeValidationErrors('', explanation.closestErrors)
          .split('; ')
          .map((line) => line.replace(/^\./, ''))
          .join(', ');
        const variant = explanation.closestTitle ?? 'its closest variant';
        return `${where}: as ${variant}, ${details}`;
      })
      .join('; ');
    const codes = new Set(explanations.map((explanation) => explanation.violationErrorCode));
    const [code] = [...codes];
    return {
      message: message || describeValidationErrors(location, check.validate.errors),
      violationErrorCode: codes.size === 1 ? code : undefined,
    };
  }

  /**
   * An ajv for one kind of check. Both kinds apply the same defaults and coercions, so a value
   * `accepts` passed is the value `validate` would have passed.
   */
  private createAjv(
    options: { coerceTypes: boolean; isExplaining: boolean; isQuickForm?: boolean },
    definitions: Record<string, unknown> = this.definitions,
  ): Ajv {
    const ajv = new Ajv({
      allErrors: options.isExplaining,
      // The quick form's discriminated oneOfs (quick-check-form.ts).
      discriminator: options.isQuickForm === true,
      useDefaults: true,
      coerceTypes: options.coerceTypes,
      strict: true,
      strictRequired: false,
      // oneOf errors then carry their variant schemas (their titles name the variants in messages).
      verbose: options.isExplaining,
    });
    addFormats(ajv);
    addContractDateTimeFormat(ajv);
    ajv.addVocabulary([VIOLATION_ERROR_CODE_KEYWORD]);
    ajv.addSchema({ $id: this.documentId, definitions });
    return ajv;
  }

  /** Resolves a normalized `$ref` (as produced by the normalizer) to its definition. */
  resolveReference(reference: string): JsonSchema | undefined {
    const prefix = `${this.documentId}#/definitions/`;
    if (!reference.startsWith(prefix)) return undefined;
    return this.definitions[reference.slice(prefix.length)] as JsonSchema | undefined;
  }

  parameters(definition: OperationDefinition, location: 'query' | 'path'): CompiledSchema {
    return this.memoize(`${definition.operationId}:${location}`, () => {
      const operation = findOperation(
        this.document,
        definition.method.toLowerCase(),
        definition.path,
      );
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== location) continue;
        properties[parameter.name] = normalizeOpenApiSchema(parameter.schema, this.documentId);
        if (parameter.required) required.push(parameter.name);
      }
      const schema: JsonSchema = { type: 'object', properties, required };
      return new LazilyExplainedSchema(this.quickParameterAjv.compile(schema), schema, () =>
        this.parameterAjv.compile(schema),
      );
    }) as CompiledSchema;
  }

  requestBody(definition: OperationDefinition): CompiledSchema | null {
    return this.memoize(`${definition.operationId}:body`, () => {
      const operation = findOperation(
        this.document,
        definition.method.toLowerCase(),
        definition.path,
      );
      const schema = operation.requestBody?.content['application/json']?.schema;
      return schema ? this.compileBody(schema) : null;
    });
  }

  response(definition: OperationDefinition, status: number): CompiledSchema | null {
    return this.memoize(`${definition.operationId}:response:${status}`, () => {
      const schema = this.responseOf(definition, status)?.content?.['application/json']?.schema;
      return schema ? this.compileBody(schema) : null;
    });
  }

  /** The error codes an operation declares for a status (x-error-codes), or undefined. */
  declaredErrorCodes(definition: OperationDefinition, status: number): string[] | undefined {
    return this.responseOf(definition, status)?.['x-error-codes'];
  }

  isStatusDeclared(definition: OperationDefinition, status: number): boolean {
    return this.responseOf(definition, status) !== undefined;
  }

  private responseOf(definition: OperationDefinition, status: number) {
    const operation = findOperation(
      this.document,
      definition.method.toLowerCase(),
      definition.path,
    );
    return operation.responses[String(status)];
  }

  private compileBody(schema: JsonSchema): CompiledSchema {
    const normalized = normalizeOpenApiSchema(schema, this.documentId) as JsonSchema;
    return new LazilyExplainedSchema(
      this.quickBodyAjv.compile(
        quickCheckForm(normalized, this.definitions, this.documentId) as JsonSchema,
      ),
      normalized,
      () => this.bodyAjv.compile(normalized),
      () => this.bodyWithoutVariantsAjv.compile(withoutVariantRules(normalized) as JsonSchema),
    );
  }

  private memoize(key: string, build: () => CompiledSchema | null): CompiledSchema | null {
    if (!this.cache.has(key)) this.cache.set(key, build());
    return this.cache.get(key) ?? null;
  }
}

/** Renders ajv errors as one line a client can act on, e.g. `query.task_count: must be >= 1`. */
export function describeValidationErrors(
  location: string,
  errors: ErrorObject[] | null | undefined,
): string {
  if (!errors || errors.length === 0) return `${location}: invalid`;
  const whereOf = (error: ErrorObject) =>
    (location + error.instancePath.replace(/\//g, '.')).replace(/\.(\d+)/g, '[$1]');
  const lines = new Set<string>();
  // anyOf wrappers (from `nullable`) repeat the inner error and add a noisy "must be null".
  const nullableWrappers = new Set(
    errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath),
  );
  // A value outside an enum also fails the enum's `type`: the enum alone says it all.
  const enumPaths = new Set(
    errors.filter((error) => error.keyword === 'enum').map((error) => error.instancePath),
  );
  for (const error of errors) {
    if (error.keyword === 'type' && enumPaths.has(error.instancePath)) continue;
    const isWrapperNoise =
      error.keyword === 'anyOf' ||
      (error.keyword === 'type' &&
        error.params.type === 'null' &&
        nullableWrappers.has(error.instancePath));
    if (isWrapperNoise) continue;
    const where = whereOf(error);
    const detail =
      error.keyword === 'required'
        ? `missing required field ${String(error.params.missingProperty)}`
        : error.keyword === 'enum'
          ? `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
          : (error.message ?? 'invalid');
    lines.add(`${where}: ${detail}`);
  }
  return [...lines].slice(0, 10).join('; ') || `${location}: invalid`;
}

const INTEGER_TEXT = /^-?(0|[1-9]\d{0,14})$/;
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d{1,3})?$/;

/**
 * Parameters arrive as text and ajv coerces them with JavaScript's Number(): `Infinity`, `1e400`,
 * `0x10` and ` 5` would all pass as integers (and a non-finite one slips past minimum and
 * maximum). So numeric parameters must be written as plain decimal numbers first; the names of
 * those that are not are returned.
 */
export function findMalformedNumericParameters(
  schema: JsonSchema,
  values: Record<string, unknown>,
): string[] {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.entries(values)
    .filter(([name, value]) => {
      const type = properties[name]?.type;
      if (typeof value !== 'string') return false;
      if (type === 'integer') return !INTEGER_TEXT.test(value);
      if (type === 'number') return !NUMBER_TEXT.test(value) || !Number.isFinite(Number(value));
      return false;
    })
    .map(([name]) => name);
}
