import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_FILE, parseContract } from '../gate/contract-model';
import { OPENAPI_DIRECTORY } from '../gate/gate-context';
import { loadOpenApi, type OpenApiModel } from '../gate/openapi-model';
import type { ContractChange } from './breaking-change';
import { diffContractTables } from './contract-table-diff';
import { findFrozenContract, openapiDocuments, type FrozenContract } from './frozen-contracts';
import { hasPaths, locateOasdiff, oasdiffChanges } from './oasdiff-runner';
import { schemaDirections } from './schema-directions';

/*
 * `npm run contract:diff`: the current contract (CONTRACT.md + openapi/*.yaml) against a frozen
 * one — oasdiff for the OpenAPI documents, the table rules for CONTRACT.md. Additions and
 * deprecations pass; anything else that an old party could notice is breaking.
 */

export interface ContractDiffOptions {
  root: string;
  /** A frozen version (`v1`); default: the newest under openapi/frozen/. */
  against?: string;
  /** Default: the one `make setup` installed (or `$OASDIFF`). */
  oasdiffBinary?: string;
}

export interface ContractDiffResult {
  frozen: FrozenContract;
  /** Sorted: breaking changes first, then by place. */
  changes: ContractChange[];
  breakingCount: number;
  elapsedMs: number;
}

export function diffContract(options: ContractDiffOptions): ContractDiffResult {
  const started = Date.now();
  const frozen = findFrozenContract(options.root, options.against);
  const frozenDocuments = openapiDocuments(options.root, frozen.directory);
  const changes = [
    ...oasdiffChanges({
      binary: options.oasdiffBinary ?? locateOasdiff(options.root),
      root: options.root,
      frozenDirectory: frozen.directory,
      currentDirectory: OPENAPI_DIRECTORY,
      documents: frozenDocuments.filter((document) =>
        hasPaths(join(options.root, frozen.directory, document)),
      ),
    }),
    ...diffContractTables({
      frozen: parseContract(read(options.root, `${frozen.directory}/${CONTRACT_FILE}`)),
      current: parseContract(read(options.root, CONTRACT_FILE)),
      frozenFile: `${frozen.directory}/${CONTRACT_FILE}`,
      // Directions from both versions: a schema that travelled in responses still does for the
      // parties built against the frozen contract.
      directions: schemaDirections([
        specOf(options.root, frozen.directory, frozenDocuments),
        specOf(options.root, OPENAPI_DIRECTORY, openapiDocuments(options.root, OPENAPI_DIRECTORY)),
      ]),
    }),
  ].sort(
    (left, right) =>
      Number(right.isBreaking) - Number(left.isBreaking) ||
      left.file.localeCompare(right.file) ||
      left.line - right.line ||
      left.column - right.column,
  );
  return {
    frozen,
    changes,
    breakingCount: changes.filter((change) => change.isBreaking).length,
    elapsedMs: Date.now() - started,
  };
}

function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

function specOf(root: string, directory: string, documents: string[]): OpenApiModel {
  return loadOpenApi(
    documents.map((document) => ({
      file: `${directory}/${document}`,
      text: read(root, `${directory}/${document}`),
    })),
  );
}
