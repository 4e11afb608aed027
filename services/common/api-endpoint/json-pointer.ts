/**
 * The value at an RFC 6901 JSON Pointer (`""` = the whole document, `/a/0/b~1c` = a[0]["b/c"]),
 * or undefined when the document has nothing there.
 */
export function valueAtPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let value: unknown = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) return undefined;
      value = value[Number(key)];
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, key)) {
      value = (value as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
    if (value === undefined) return undefined;
  }
  return value;
}

/** The pointer to `key` under `parent` (escaping `~` and `/`). */
export function childPointer(parent: string, key: string | number): string {
  return `${parent}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
