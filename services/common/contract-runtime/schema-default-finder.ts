import type { JsonSchema } from './openapi-document';

/**
 * Whether ajv's `useDefaults` could fill anything into a value checked against `schema`: some
 * schema reachable from it (through properties, items, branches and `$ref`s) declares a `default`.
 * Errs on the side of yes — any object with a `default` key counts, an example's too — because a
 * "no" lets the received JSON text stand for the checked value (contract-router.ts).
 */
export function declaresDefault(
  schema: JsonSchema,
  resolveReference: (reference: string) => JsonSchema | undefined,
): boolean {
  const visited = new Set<unknown>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object' || visited.has(node)) continue;
    visited.add(node);
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    const fields = node as Record<string, unknown>;
    if (Object.hasOwn(fields, 'default')) return true;
    if (typeof fields.$ref === 'string') {
      const target = resolveReference(fields.$ref);
      // A reference that leads nowhere cannot be ruled out.
      if (target === undefined) return true;
      pending.push(target);
    }
    for (const value of Object.values(fields)) pending.push(value);
  }
  return false;
}
