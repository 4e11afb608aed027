import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { parse, stringify } from 'yaml';
import { contractServices, serviceClassName, type ContractService } from './contract-services';
import { requireGeneratorJar } from './generator-jar';
import { bundleServiceDocument } from './spec-bundler';

/** The files rendered from templates/typescript-contract for every service. */
export const templateOutputs = [
  'operation-types.ts',
  'handlers.ts',
  'router.ts',
  'client.ts',
  'index.ts',
] as const;

/** generated/<service>/<file> → file content, for every file `npm run generate` owns. */
export type GeneratedFiles = Map<string, string>;

export interface GenerationTimings {
  bundleMs: number;
  javaMs: number;
  typesMs: number;
  formatMs: number;
}

/**
 * Runs the whole generation into memory: bundle each service document, render our templates for
 * all services in ONE JVM (`openapi-generator batch`), emit types with openapi-typescript, and
 * format everything with prettier. Deterministic: the same inputs give the same bytes.
 */
export async function generateContractCode(
  repositoryRoot: string,
): Promise<{ files: GeneratedFiles; timings: GenerationTimings }> {
  const workDirectory = mkdtempSync(join(tmpdir(), 'contract-generate-'));
  try {
    let started = Date.now();
    const documents = new Map<ContractService, Record<string, unknown>>();
    for (const service of contractServices) {
      documents.set(service, bundleServiceDocument(join(repositoryRoot, 'openapi'), service));
    }
    const bundleMs = Date.now() - started;

    started = Date.now();
    const configPaths = contractServices.map((service) =>
      writeBatchConfig(repositoryRoot, workDirectory, service, documents.get(service)!),
    );
    runGeneratorBatch(requireGeneratorJar(repositoryRoot), configPaths);
    const javaMs = Date.now() - started;

    const raw = new Map<string, string>();
    for (const service of contractServices) {
      for (const output of templateOutputs) {
        raw.set(
          `generated/${service}/${output}`,
          readFileSync(join(workDirectory, 'out', service, output), 'utf8'),
        );
      }
      raw.set(
        `generated/${service}/openapi.json`,
        `${JSON.stringify(documents.get(service), null, 2)}\n`,
      );
    }

    started = Date.now();
    for (const service of contractServices) {
      raw.set(
        `generated/${service}/types.ts`,
        await emitTypes(`${service}.yaml`, documents.get(service)!),
      );
    }
    // The shared components on their own: what several services use (ErrorBody's error_code) is
    // typed once, not taken from one service's generation.
    const sharedDocument = parse(
      readFileSync(join(repositoryRoot, 'openapi', 'components.yaml'), 'utf8'),
    ) as Record<string, unknown>;
    raw.set('generated/components/types.ts', await emitTypes('components.yaml', sharedDocument));
    const typesMs = Date.now() - started;

    started = Date.now();
    const files: GeneratedFiles = new Map();
    for (const [path, content] of [...raw.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      files.set(path, await formatWithPrettier(join(repositoryRoot, path), content));
    }
    const formatMs = Date.now() - started;

    return { files, timings: { bundleMs, javaMs, typesMs, formatMs } };
  } finally {
    if (!process.env.KEEP_GENERATE_TMP) rmSync(workDirectory, { recursive: true, force: true });
  }
}

function writeBatchConfig(
  repositoryRoot: string,
  workDirectory: string,
  service: ContractService,
  document: Record<string, unknown>,
): string {
  const specPath = join(workDirectory, `${service}.openapi.json`);
  writeFileSync(specPath, JSON.stringify(document));
  const config = {
    // The base generator only supplies the operation data; every emitted file is ours.
    generatorName: 'typescript',
    inputSpec: specPath,
    outputDir: join(workDirectory, 'out', service),
    templateDir: join(repositoryRoot, 'templates', 'typescript-contract'),
    additionalProperties: { serviceName: service, serviceClassName: serviceClassName(service) },
    globalProperties: {
      apis: '',
      supportingFiles: templateOutputs.join(','),
      apiDocs: 'false',
      apiTests: 'false',
    },
    files: Object.fromEntries(
      templateOutputs.map((output) => [
        output.replace(/\.ts$/, '.mustache'),
        { templateType: 'SupportingFiles', destinationFilename: output },
      ]),
    ),
  };
  const configPath = join(workDirectory, `${service}.generator.yaml`);
  mkdirSync(workDirectory, { recursive: true });
  writeFileSync(configPath, stringify(config));
  return configPath;
}

function runGeneratorBatch(jarPath: string, configPaths: string[]): void {
  const result = spawnSync(
    'java',
    ['-jar', jarPath, 'batch', '--clean', '--fail-fast', ...configPaths],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) {
    throw new Error(`could not start java (is a JRE installed?): ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(
      `openapi-generator batch failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

async function emitTypes(sourceFile: string, document: Record<string, unknown>): Promise<string> {
  // defaultNonNullable off: a property with a default stays optional for senders.
  const ast = await openapiTS(document as never, { defaultNonNullable: false, alphabetize: false });
  return [
    '/*',
    ` * Generated by \`npm run generate\` from openapi/${sourceFile} with openapi-typescript.`,
    ' * Do not edit: change the contract (CONTRACT.md + openapi/) and regenerate.',
    ' */',
    astToString(ast),
  ].join('\n');
}

async function formatWithPrettier(path: string, content: string): Promise<string> {
  const config = (await prettier.resolveConfig(path)) ?? {};
  return prettier.format(content, { ...config, filepath: path });
}
