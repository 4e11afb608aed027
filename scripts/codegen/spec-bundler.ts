import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type JsonObject = { [key: string]: unknown };
const sharedFile = './components.yaml';

/**
 * Produces one self-contained OpenAPI document per service: references into the shared
 * `openapi/components.yaml` are replaced by local ones and the referenced components (and what
 * they reference in turn) are copied in. Both generators and the run-time validator then read a
 * single file, and the result is deterministic: same input, same bytes.
 */
export function bundleServiceDocument(openapiDirectory: string, service: string): JsonObject {
  const document = parse(
    readFileSync(join(openapiDirectory, `${service}.yaml`), 'utf8'),
  ) as JsonObject;
  const shared = parse(
    readFileSync(join(openapiDirectory, 'components.yaml'), 'utf8'),
  ) as JsonObject;
  const sharedComponents = (shared.components ?? {}) as Record<string, JsonObject>;
  const components = (document.components ??= {}) as Record<string, JsonObject>;

  const pulled = new Map<string, unknown>(); // "schemas/Name" → copied component
  const pending: string[] = [];

  const rewrite = (node: unknown, { isInsideShared }: { isInsideShared: boolean }): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, { isInsideShared }));
    if (node === null || typeof node !== 'object') return node;
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(node as JsonObject)) {
      if (key === '$ref' && typeof value === 'string') {
        const shared = readSharedReference(value, isInsideShared);
        if (shared) {
          if (!pulled.has(shared) && !pending.includes(shared)) pending.push(shared);
          result.$ref = `#/components/${shared}`;
          continue;
        }
      }
      result[key] = rewrite(value, { isInsideShared });
    }
    return result;
  };

  const bundled = rewrite(document, { isInsideShared: false }) as JsonObject;
  while (pending.length > 0) {
    const key = pending.shift() as string;
    const [kind, name] = key.split('/');
    const source = sharedComponents[kind]?.[name];
    if (source === undefined)
      throw new Error(`${service}.yaml references missing ${sharedFile}#/components/${key}`);
    pulled.set(key, rewrite(source, { isInsideShared: true }));
  }

  const bundledComponents = (bundled.components ?? {}) as Record<string, JsonObject>;
  for (const key of [...pulled.keys()].sort()) {
    const [kind, name] = key.split('/');
    const target = (bundledComponents[kind] ??= {});
    if (components[kind]?.[name] !== undefined) {
      throw new Error(
        `${service}.yaml defines components/${key}, which ${sharedFile} also defines`,
      );
    }
    target[name] = pulled.get(key);
  }
  // Security schemes are named in operations, not referenced: every document gets all of them.
  bundledComponents.securitySchemes = {
    ...(sharedComponents.securitySchemes ?? {}),
    ...(bundledComponents.securitySchemes ?? {}),
  };
  bundled.components = sortComponentKinds(bundledComponents);
  return bundled;
}

/** `./components.yaml#/components/schemas/X` (or `#/…` inside the shared file) → `schemas/X`. */
function readSharedReference(reference: string, isInsideShared: boolean): string | null {
  const prefix = isInsideShared ? '#/components/' : `${sharedFile}#/components/`;
  if (!reference.startsWith(prefix)) return null;
  return reference.slice(prefix.length);
}

function sortComponentKinds(components: Record<string, JsonObject>): Record<string, JsonObject> {
  const order = ['securitySchemes', 'responses', 'parameters', 'schemas'];
  const kinds = Object.keys(components).sort((a, b) => rank(order, a) - rank(order, b));
  return Object.fromEntries(kinds.map((kind) => [kind, components[kind]]));
}

function rank(order: string[], kind: string): number {
  const index = order.indexOf(kind);
  return index === -1 ? order.length : index;
}
