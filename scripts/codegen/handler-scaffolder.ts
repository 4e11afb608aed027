import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as prettier from 'prettier';
import { contractServices, serviceClassName, type ContractService } from './contract-services';

interface OperationSummary {
  operationId: string;
  method: string;
  path: string;
  summary: string;
}

/**
 * For every operation of every generated handler interface, creates
 * services/<service>/handlers/<operation>.ts with a stub answering 501 not_implemented — only when
 * the file is missing; an existing file is never touched. Also creates the service's context.ts
 * and handlers/index.ts when missing, and names any operation index.ts does not wire yet.
 */
export async function scaffoldHandlers(
  repositoryRoot: string,
): Promise<{ createdPaths: string[]; unwiredNotes: string[] }> {
  const created: string[] = [];
  const unwired: string[] = [];
  for (const service of contractServices) {
    const operations = readOperations(repositoryRoot, service);
    const handlerDirectory = join(repositoryRoot, 'services', service, 'handlers');
    for (const operation of operations) {
      const path = join(handlerDirectory, `${kebabCase(operation.operationId)}.ts`);
      if (await createIfMissing(path, renderHandlerStub(service, operation))) created.push(path);
    }
    const contextPath = join(repositoryRoot, 'services', service, 'context.ts');
    if (await createIfMissing(contextPath, renderContext(service))) created.push(contextPath);
    const indexPath = join(handlerDirectory, 'index.ts');
    if (await createIfMissing(indexPath, renderIndex(service, operations))) {
      created.push(indexPath);
    } else {
      const index = readFileSync(indexPath, 'utf8');
      for (const operation of operations) {
        if (!index.includes(`${factoryName(operation)}(`)) {
          unwired.push(
            `${relative(repositoryRoot, indexPath)}: add ${operation.operationId}: ${factoryName(operation)}(context)`,
          );
        }
      }
    }
  }
  return {
    createdPaths: created.map((path) => relative(repositoryRoot, path)),
    unwiredNotes: unwired,
  };
}

function readOperations(repositoryRoot: string, service: ContractService): OperationSummary[] {
  const document = JSON.parse(
    readFileSync(join(repositoryRoot, 'generated', service, 'openapi.json'), 'utf8'),
  ) as { paths: Record<string, Record<string, { operationId: string; summary?: string }>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      summary: operation.summary ?? '',
    })),
  );
}

async function createIfMissing(path: string, content: string): Promise<boolean> {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  const config = (await prettier.resolveConfig(path)) ?? {};
  writeFileSync(path, await prettier.format(content, { ...config, filepath: path }));
  return true;
}

function renderHandlerStub(service: ContractService, operation: OperationSummary): string {
  const className = serviceClassName(service);
  return `import type { ${className}Handlers } from '../../../generated/${service}';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { ${className}Context } from '../context';

/** ${operation.method} ${operation.path} — ${operation.summary} */
export function ${factoryName(operation)}(
  _context: ${className}Context,
): ${className}Handlers['${operation.operationId}'] {
  return async () => {
    throw notImplemented('${operation.operationId}');
  };
}
`;
}

function renderContext(service: ContractService): string {
  const className = serviceClassName(service);
  return `import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';

/** What the ${service}'s handlers share. Extend it as the service grows. */
export interface ${className}Context {
  config: ServiceConfig;
  logger: Logger;
}
`;
}

function renderIndex(service: ContractService, operations: OperationSummary[]): string {
  const className = serviceClassName(service);
  const imports = operations
    .map(
      (operation) =>
        `import { ${factoryName(operation)} } from './${kebabCase(operation.operationId)}';`,
    )
    .join('\n');
  const entries = operations
    .map((operation) => `    ${operation.operationId}: ${factoryName(operation)}(context),`)
    .join('\n');
  return `import type { ${className}Handlers } from '../../../generated/${service}';
import type { ${className}Context } from '../context';
${imports}

/** Wires one handler per contract operation; tsc names any operation missing here. */
export function create${className}Handlers(context: ${className}Context): ${className}Handlers {
  return {
${entries}
  };
}
`;
}

function factoryName(operation: OperationSummary): string {
  return `create${operation.operationId[0].toUpperCase()}${operation.operationId.slice(1)}Handler`;
}

export function kebabCase(identifier: string): string {
  return identifier.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}
