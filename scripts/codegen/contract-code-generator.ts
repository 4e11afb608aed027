import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';
import { parse, stringify } from 'yaml';
import { contractServices, serviceClassName, type ContractService } from './contract-services';
import { goGeneratorDocument, typesEmitterDocument } from './go-generator-document';
import { requireGeneratorJar } from './generator-jar';
import { bundleServiceDocument } from './spec-bundler';
import { typescriptGeneratorDocument } from './typescript-generator-document';

/** The files rendered from templates/typescript-contract for every service. */
export const templateOutputs = [
  'operation-types.ts',
  'operation-definitions.ts',
  'handlers.ts',
  'router.ts',
  'client.ts',
  'index.ts',
] as const;

/** The Go client's supporting files (besides one api_*.go per tag and one model_*.go per schema). */
export const goSupportingFiles = [
  'client.go',
  'configuration.go',
  'response.go',
  'utils.go',
  'contract_examples_test.go',
] as const;

/**
 * The Go client module: one module, one package per service (generated/go/<service>), because each
 * service's document is generated on its own (the shared components are copied into each, so the
 * three packages cannot be one namespace — `HealthSignal`, `ErrorBody` would collide) while a
 * consumer such as seed 002's Go ingest service wants one `require` and one version for them all.
 */
export const GO_MODULE_PATH = 'render-crawler/generated/go';
const GO_DIRECTORY = 'generated/go';

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
    const configPaths = contractServices.flatMap((service) => {
      const document = documents.get(service)!;
      const specPath = join(workDirectory, `${service}.openapi.json`);
      writeFileSync(specPath, JSON.stringify(typescriptGeneratorDocument(document)));
      const goSpecPath = join(workDirectory, `${service}.go.openapi.json`);
      writeFileSync(goSpecPath, JSON.stringify(goGeneratorDocument(document)));
      return [
        writeTypescriptBatchConfig(repositoryRoot, workDirectory, service, specPath),
        writeGoBatchConfig(repositoryRoot, workDirectory, service, goSpecPath),
      ];
    });
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
    const goFiles = readGoClient(workDirectory);
    const gofmtMs = Date.now() - started;

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
    const formatted = new Map(goFiles);
    for (const [path, content] of raw) {
      formatted.set(path, await formatWithPrettier(join(repositoryRoot, path), content));
    }
    const files: GeneratedFiles = new Map(
      [...formatted.entries()].sort(([a], [b]) => a.localeCompare(b)),
    );
    const formatMs = Date.now() - started + gofmtMs;

    return { files, timings: { bundleMs, javaMs, typesMs, formatMs } };
  } finally {
    if (!process.env.KEEP_GENERATE_TMP) rmSync(workDirectory, { recursive: true, force: true });
  }
}

function writeTypescriptBatchConfig(
  repositoryRoot: string,
  workDirectory: string,
  service: ContractService,
  specPath: string,
): string {
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

/**
 * openapi-generator's stock `go` generator, with templates/go-contract overriding what the contract
 * needs: enums that keep a value they do not know, and a test that round-trips the examples.
 * Models keep unknown fields (`AdditionalProperties`, from
 * disallowAdditionalPropertiesIfNotPresent=false) and re-encode them; required nullable fields are
 * `NullableX` values always encoded, `null` included; json tags are the wire names (`baseName`).
 * Integers are int64: the contract bounds none to 32 bits.
 */
function writeGoBatchConfig(
  repositoryRoot: string,
  workDirectory: string,
  service: ContractService,
  specPath: string,
): string {
  const config = {
    generatorName: 'go',
    inputSpec: specPath,
    outputDir: join(workDirectory, 'go', service),
    templateDir: join(repositoryRoot, 'templates', 'go-contract'),
    additionalProperties: {
      packageName: service,
      withGoMod: false,
      enumClassPrefix: true,
      disallowAdditionalPropertiesIfNotPresent: false,
      hideGenerationTimestamp: true,
    },
    typeMappings: { integer: 'int64' },
    globalProperties: {
      apis: '',
      models: '',
      supportingFiles: goSupportingFiles.join(','),
      apiDocs: 'false',
      modelDocs: 'false',
      apiTests: 'false',
      modelTests: 'false',
    },
    files: {
      'contract_examples_test.mustache': {
        templateType: 'SupportingFiles',
        destinationFilename: 'contract_examples_test.go',
      },
    },
  };
  const configPath = join(workDirectory, `${service}.go.generator.yaml`);
  writeFileSync(configPath, stringify(config));
  return configPath;
}

/** The Go files of every service's package, gofmt-formatted, plus the module's go.mod. */
function readGoClient(workDirectory: string): GeneratedFiles {
  const files: GeneratedFiles = new Map();
  for (const service of contractServices) {
    const directory = join(workDirectory, 'go', service);
    const result = spawnSync('gofmt', ['-w', directory], { encoding: 'utf8' });
    if (result.error || result.status !== 0) {
      throw new Error(
        `gofmt failed on the generated Go client (is Go installed?): ` +
          `${result.error?.message ?? result.stderr}`,
      );
    }
    for (const file of readdirSync(directory)
      .filter((name) => name.endsWith('.go'))
      .sort()) {
      files.set(`${GO_DIRECTORY}/${service}/${file}`, readFileSync(join(directory, file), 'utf8'));
    }
  }
  files.set(
    `${GO_DIRECTORY}/go.mod`,
    [
      '// Generated by `npm run generate`: the Go client of the render-crawler contract, one package',
      '// per service. Do not edit: change the contract (CONTRACT.md + openapi/) and regenerate.',
      `module ${GO_MODULE_PATH}`,
      '',
      'go 1.22',
      '',
    ].join('\n'),
  );
  return files;
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
  const ast = await openapiTS(typesEmitterDocument(document) as never, {
    defaultNonNullable: false,
    alphabetize: false,
  });
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
