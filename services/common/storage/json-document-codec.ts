/**
 * Documents are stored as canonical JSON: object fields sorted by name at every level. Sorting makes
 * the bytes a function of the value alone, so a compare-and-swap whose `expected` was built by hand
 * (fields in any order) still matches the stored bytes. Field names are snake_case, never
 * integer-like, so JavaScript's insertion order of the sorted copy is the sorted order.
 */

function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonicalize);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const name of Object.keys(source).sort()) {
    const fieldValue = source[name];
    if (fieldValue !== undefined) {
      sorted[name] = canonicalize(fieldValue);
    }
  }
  return sorted;
}

/** Expects a document already accepted by assertConventionalDocument (plain JSON). */
export function encodeDocument(document: unknown): Buffer {
  return Buffer.from(JSON.stringify(canonicalize(document)), 'utf8');
}

export function decodeDocument<T>(bytes: Buffer): T {
  return JSON.parse(bytes.toString('utf8')) as T;
}
