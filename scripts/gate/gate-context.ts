import ts from 'typescript';
import { CONTRACT_FILE, parseContract, type ContractModel } from './contract-model';
import { collectContractNames, type ContractNames } from './contract-names';
import { CONVENTION_FILE, parseConvention, type ConventionModel } from './convention-model';
import { finding, startOf, type Finding, type SourceLocation } from './finding';
import { loadOpenApi, type OpenApiModel } from './openapi-model';
import { RepositoryFiles } from './repository-files';

/*
 * Everything the rules read, loaded lazily and at most once per run: a rule that needs CONTRACT.md
 * triggers its parsing, and a second rule reuses it. Problems met while loading (a missing
 * CONTRACT.md, invalid YAML, a malformed bound table) are collected here as findings of the rule that
 * owns the input, so they are reported once whichever rule asked first.
 */

export const OPENAPI_DIRECTORY = 'openapi';
/**
 * Frozen copies of earlier contract versions (`npm run contract:freeze`), the baseline of
 * `npm run contract:diff`. They are history, not the current contract: the gate never reads them.
 */
export const FROZEN_CONTRACTS_DIRECTORY = `${OPENAPI_DIRECTORY}/frozen`;
export const GENERATED_DIRECTORY = 'generated';
export const SERVICES_DIRECTORY = 'services';
export const TEMPLATES_DIRECTORY = 'templates';
const TYPESCRIPT_SUFFIXES = ['.ts', '.tsx'];

export class GateContext {
  readonly files: RepositoryFiles;
  readonly loadFindings: Finding[] = [];
  #contract: ContractModel | undefined | null = null;
  #convention: ConventionModel | undefined | null = null;
  #openapi: OpenApiModel | undefined;
  #names: ContractNames | undefined;
  readonly #sources = new Map<string, ts.SourceFile>();

  constructor(root: string) {
    this.files = new RepositoryFiles(root);
  }

  /** CONTRACT.md's bound tables; undefined (and reported) when the file is missing. */
  get contract(): ContractModel | undefined {
    if (this.#contract === null) {
      const text = this.files.read(CONTRACT_FILE);
      this.#contract = text === undefined ? undefined : parseContract(text);
      this.loadFindings.push(
        ...(this.#contract?.findings ??
          this.#missing(
            'contract-coverage',
            CONTRACT_FILE,
            'the single source of truth for names',
          )),
      );
    }
    return this.#contract;
  }

  /** CONVENTION.md's lists; undefined (and reported) when the file is missing. */
  get convention(): ConventionModel | undefined {
    if (this.#convention === null) {
      const text = this.files.read(CONVENTION_FILE);
      this.#convention = text === undefined ? undefined : parseConvention(text);
      this.loadFindings.push(
        ...(this.#convention?.findings ??
          this.#missing('convention', CONVENTION_FILE, 'the naming rules and their lists')),
      );
    }
    return this.#convention;
  }

  get openapi(): OpenApiModel {
    if (this.#openapi === undefined) {
      const files = this.files
        .list(OPENAPI_DIRECTORY, ['.yaml', '.yml'])
        .filter((file) => !file.startsWith(`${FROZEN_CONTRACTS_DIRECTORY}/`));
      this.#openapi = loadOpenApi(
        files.map((file) => ({ file, text: this.files.read(file) ?? '' })),
      );
      this.loadFindings.push(...this.#openapi.findings);
      if (files.length === 0) {
        this.loadFindings.push(
          ...this.#missing('contract-coverage', `${OPENAPI_DIRECTORY}/`, 'the OpenAPI documents'),
        );
      }
    }
    return this.#openapi;
  }

  get contractNames(): ContractNames {
    this.#names ??= collectContractNames(this.contract, this.openapi);
    return this.#names;
  }

  /** TypeScript files under a directory (relative paths, sorted). */
  typescriptFiles(directory: string): string[] {
    return this.files
      .list(directory, TYPESCRIPT_SUFFIXES)
      .filter((file) => !file.endsWith('.d.ts'));
  }

  /** A syntax tree only (no program, no type checker): parsing is the whole cost of a file. */
  sourceFile(file: string): ts.SourceFile {
    let source = this.#sources.get(file);
    if (source === undefined) {
      // JSDoc is never a wire name; skipping its parsing is most of a file's parse time saved.
      source = ts.createSourceFile(
        file,
        this.files.read(file) ?? '',
        {
          languageVersion: ts.ScriptTarget.Latest,
          jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
        },
        false,
        file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
      );
      this.#sources.set(file, source);
    }
    return source;
  }

  #missing(rule: Finding['rule'], file: string, what: string): Finding[] {
    return [finding(rule, startOf(file), `${file} is missing; the gate reads ${what} from it`)];
  }
}

/** The 1-based position of a node's first character (after leading trivia). */
export function nodeLocation(source: ts.SourceFile, node: ts.Node): SourceLocation {
  const position = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { file: source.fileName, line: position.line + 1, column: position.character + 1 };
}
