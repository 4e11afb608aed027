import type { OperationDefinition } from './operation-definition';

/** Where a request's method and path lead among a contract's operations. */
export type RouteMatch<Operation> =
  | {
      kind: 'operation';
      operation: Operation;
      /** Path parameters as they appear in the URL, still percent-encoded. */
      encodedPathParameters: Record<string, string>;
    }
  /** The path is the contract's, the method is not: the answer is 405 with `Allow`. */
  | { kind: 'method-not-allowed'; allowedMethods: readonly string[] }
  /** Not a contract path: some other route may serve it. */
  | { kind: 'not-a-contract-path' };

interface PathRoute<Operation> {
  /** Case-insensitive, as Express's routes are. */
  pattern: RegExp;
  parameterNames: readonly string[];
  /** In the order the contract declares them (the order `Allow` lists them in). */
  operationsByMethod: Map<string, Operation>;
}

/**
 * The contract's paths and methods, matched the way the Express router matched them before the
 * contract was served on node:http directly (contract-router.ts): case-insensitive, one optional
 * trailing slash, a path parameter is one non-empty segment; among templates, the first declared
 * whose path and method both match. A path with no parameter is found by one map look-up — the
 * lease and report paths, nearly every request — and is preferred to a template that would match
 * it too, where Express went by declaration order (no contract declares such a pair).
 */
export class OperationRoutes<Operation extends { definition: OperationDefinition }> {
  private readonly fixedPaths = new Map<string, PathRoute<Operation>>();
  private readonly templatedPaths: PathRoute<Operation>[] = [];

  constructor(operations: readonly Operation[]) {
    const routesByTemplate = new Map<string, PathRoute<Operation>>();
    for (const operation of operations) {
      const template = operation.definition.path.toLowerCase();
      let route = routesByTemplate.get(template);
      if (route === undefined) {
        route = routeOf<Operation>(operation.definition.path);
        routesByTemplate.set(template, route);
        if (route.parameterNames.length === 0) this.fixedPaths.set(template, route);
        else this.templatedPaths.push(route);
      }
      route.operationsByMethod.set(operation.definition.method, operation);
    }
  }

  /** `pathname` is the request target before its `?`, as received. */
  match(method: string, pathname: string): RouteMatch<Operation> {
    const path = withoutTrailingSlash(pathname);
    const fixed = this.fixedPaths.get(path.toLowerCase());
    if (fixed !== undefined) return matchOf(fixed, method, {});
    let pathOnly: PathRoute<Operation> | undefined;
    for (const route of this.templatedPaths) {
      const found = route.pattern.exec(path);
      if (found === null) continue;
      if (!route.operationsByMethod.has(method)) {
        pathOnly ??= route;
        continue;
      }
      const parameters: Record<string, string> = {};
      route.parameterNames.forEach((name, index) => {
        parameters[name] = found[index + 1] as string;
      });
      return matchOf(route, method, parameters);
    }
    if (pathOnly !== undefined) return matchOf(pathOnly, method, {});
    return { kind: 'not-a-contract-path' };
  }
}

/** `/v1/objects/{object_id}` → a case-insensitive pattern capturing one segment per parameter. */
function routeOf<Operation>(template: string): PathRoute<Operation> {
  const parameterNames: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const parameter = /^\{([^}]+)\}$/.exec(part);
      if (parameter === null) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      parameterNames.push(parameter[1] as string);
      return '([^/]+)';
    })
    .join('');
  return {
    pattern: new RegExp(`^${source}$`, 'i'),
    parameterNames,
    operationsByMethod: new Map(),
  };
}

function matchOf<Operation>(
  route: PathRoute<Operation>,
  method: string,
  encodedPathParameters: Record<string, string>,
): RouteMatch<Operation> {
  const operation = route.operationsByMethod.get(method);
  if (operation === undefined) {
    return { kind: 'method-not-allowed', allowedMethods: [...route.operationsByMethod.keys()] };
  }
  return { kind: 'operation', operation, encodedPathParameters };
}

function withoutTrailingSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}
