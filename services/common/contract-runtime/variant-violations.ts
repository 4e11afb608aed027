import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './openapi-document';

/**
 * A schema's `x-violation-error-code`: the error_code answered when a value breaks only that
 * schema's variant rule (its `oneOf`) — e.g. ReportResult's fetch_status table answers
 * `fetch_status_mismatch`, not the generic `invalid_request`. Kept through normalization.
 */
export const VIOLATION_ERROR_CODE_KEYWORD = 'x-violation-error-code';

interface VariantSchema extends JsonSchema {
  title?: unknown;
  properties?: Record<string, { enum?: unknown }>;
}

/**
 * The schema without its variant rules: every `oneOf` next to `properties` (an object whose
 * variants refine its fields) removed. A value that passes this but not the full schema broke
 * only a variant rule.
 */
export function withoutVariantRules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutVariantRules);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as JsonSchema;
  const isRefinedObject = 'properties' in source && 'oneOf' in source;
  return Object.fromEntries(
    Object.entries(source)
      .filter(([keyword]) => !(isRefinedObject && keyword === 'oneOf'))
      .map(([keyword, value]) => [keyword, withoutVariantRules(value)]),
  );
}

/**
 * Properties every variant pins to its own values (fetch_status, verdict): the value's own tag
 * says which variant it meant.
 */
function discriminatorNames(variants: readonly VariantSchema[]): Set<string> {
  const [first] = variants;
  return new Set(
    Object.keys(first?.properties ?? {}).filter((name) =>
      variants.every((variant) => Array.isArray(variant.properties?.[name]?.enum)),
    ),
  );
}

export interface VariantExplanation {
  /** Where the value sits, relative to the body (`/result_list/1`). */
  readonly instancePath: string;
  /** The variant the value is closest to (its `title`), if it has one. */
  readonly closestTitle: string | undefined;
  /** That variant's complaints, paths relative to the value. */
  readonly closestErrors: ErrorObject[];
  /** The failing schema's `x-violation-error-code`, if it names one. */
  readonly violationErrorCode: string | undefined;
}

/**
 * Explains `oneOf` failures (ajv with `verbose`: a oneOf error carries its variants and the value)
 * by checking the value against each variant on its own: the closest is the variant whose tag
 * (a property every variant pins, like fetch_status) matches, then the one with fewest errors.
 */
export class VariantExplainer {
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(private readonly ajv: Ajv) {}

  explain(errors: readonly ErrorObject[]): VariantExplanation[] {
    return errors
      .filter((error) => error.keyword === 'oneOf' && Array.isArray(error.schema))
      .map((error) => this.explainOne(error));
  }

  private explainOne(error: ErrorObject): VariantExplanation {
    const variants = error.schema as VariantSchema[];
    const discriminators = discriminatorNames(variants);
    const candidates = variants.map((variant) => {
      const validate = this.validatorOf(variant);
      validate(error.data);
      const variantErrors = [...(validate.errors ?? [])];
      const missesTag = variantErrors.some((variantError) =>
        discriminators.has(variantError.instancePath.slice(1)),
      );
      return { variant, variantErrors, missesTag };
    });
    const [closest] = candidates.sort(
      (left, right) =>
        Number(left.missesTag) - Number(right.missesTag) ||
        left.variantErrors.length - right.variantErrors.length,
    );
    const code = (error.parentSchema as JsonSchema | undefined)?.[VIOLATION_ERROR_CODE_KEYWORD];
    return {
      instancePath: error.instancePath,
      closestTitle: typeof closest?.variant.title === 'string' ? closest.variant.title : undefined,
      closestErrors: closest?.variantErrors ?? [],
      violationErrorCode: typeof code === 'string' ? code : undefined,
    };
  }

  private validatorOf(variant: VariantSchema): ValidateFunction {
    let validate = this.compiled.get(variant);
    if (validate === undefined) {
      validate = this.ajv.compile(variant);
      this.compiled.set(variant, validate);
    }
    return validate;
  }
}
