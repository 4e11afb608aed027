import downloaderDocument from '../../../generated/downloader/openapi.json';
import samplerDocument from '../../../generated/sampler/openapi.json';
import schedulerDocument from '../../../generated/scheduler/openapi.json';
import { downloaderOperationDefinitions } from '../../../generated/downloader/operation-definitions';
import { samplerOperationDefinitions } from '../../../generated/sampler/operation-definitions';
import {
  doneResult,
  failedResult,
  link,
  notModifiedResult,
  ruleFor,
} from '../../scheduler/testing/contract-fixtures';
import { schedulerOperationDefinitions } from '../../../generated/scheduler/operation-definitions';
import { ContractValidators, type CompiledSchema } from './contract-validators';
import { findOperation, type JsonSchema, type OpenApiDocument } from './openapi-document';
import type { OperationDefinition } from './operation-definition';
import { quickCheckForm } from './quick-check-form';

const DOCUMENT_ID = 'test-document';
const reference = (name: string) => ({ $ref: `${DOCUMENT_ID}#/definitions/${name}` });

describe('quickCheckForm', () => {
  it('turns a nullable wrapper into an if/else that records no error for null', () => {
    const form = quickCheckForm(
      { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }], description: 'd' },
      {},
      DOCUMENT_ID,
    );
    expect(form).toEqual({
      description: 'd',
      if: { type: 'null' },
      else: { type: 'string', maxLength: 3 },
    });
  });

  it('discriminates a oneOf whose variants pin a required property to values of their own', () => {
    const schema = {
      type: 'object',
      required: ['kind'],
      oneOf: [{ properties: { kind: { enum: ['a', 'b'] } } }, reference('Other')],
    };
    const definitions = { Other: { properties: { kind: { const: 'c' } } } };
    expect(quickCheckForm(schema, definitions, DOCUMENT_ID)).toEqual({
      ...schema,
      discriminator: { propertyName: 'kind' },
    });
  });

  it.each([
    [
      'a value two variants share',
      { type: 'object', required: ['kind'], oneOf: [kindOf(['a', 'b']), kindOf(['b'])] },
      {},
    ],
    [
      'a property no variant requires',
      { type: 'object', oneOf: [kindOf(['a']), kindOf(['b'])] },
      {},
    ],
    [
      'a schema that is not for objects alone',
      { required: ['kind'], oneOf: [kindOf(['a']), kindOf(['b'])] },
      {},
    ],
    [
      'a variant that does not pin it',
      {
        type: 'object',
        required: ['kind'],
        oneOf: [kindOf(['a']), { properties: { kind: { type: 'string' } } }],
      },
      {},
    ],
    [
      'a variant with a default (filled inside a discriminated variant, not inside oneOf)',
      {
        type: 'object',
        required: ['kind'],
        oneOf: [kindOf(['a']), { properties: { kind: { enum: ['b'] }, n: { default: 1 } } }],
      },
      {},
    ],
    [
      'a variant whose reference cannot be resolved',
      { type: 'object', required: ['kind'], oneOf: [kindOf(['a']), reference('Missing')] },
      {},
    ],
    [
      'a variant whose reference holds a default',
      { type: 'object', required: ['kind'], oneOf: [kindOf(['a']), reference('WithDefault')] },
      {
        WithDefault: { properties: { kind: { enum: ['b'] }, n: reference('Defaulted') } },
        Defaulted: { type: 'integer', default: 3 },
      },
    ],
  ])('leaves a oneOf alone with %s', (_name, schema, definitions) => {
    expect(quickCheckForm(schema, definitions, DOCUMENT_ID)).toEqual(schema);
  });

  it('leaves a nullable wrapper alone when its branch holds a default', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { n: { type: 'integer', default: 1 } } },
        { type: 'null' },
      ],
    };
    expect(quickCheckForm(schema, {}, DOCUMENT_ID)).toEqual(schema);
  });

  it('copies data keywords as data: an enum holding an object shaped like a schema stays', () => {
    const schema = { enum: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }] };
    expect(quickCheckForm(schema, {}, DOCUMENT_ID)).toEqual(schema);
  });
});

function kindOf(values: string[]) {
  return { properties: { kind: { enum: values } } };
}

/**
 * The verdicts of the quick form against the contract's own check: the explaining check compiles
 * the schema as written (anyOf, oneOf), the quick check its quick form. Every mutation of a valid
 * body — each field deleted, or set to a value of each kind, every fetch_status and verdict value —
 * must get the same verdict from both and leave the same value.
 */
describe('the quick form of the contract: same verdicts as the schema as written', () => {
  const validators = new ContractValidators(schedulerDocument as OpenApiDocument, 'scheduler');
  const bodyOf = (operationId: string) => {
    const definition = schedulerOperationDefinitions.find(
      (candidate) => candidate.operationId === operationId,
    );
    return validators.requestBody(definition!) as CompiledSchema;
  };
  const task = { url: 'http://127.0.0.1:8080/a', url_hash: '0123456789abcdef0123456789abcdef' };
  const report = (result: unknown) => ({
    lease_id: 'l-0123456789abcdef',
    worker_id: 'w1',
    result_list: [result],
  });

  it.each([
    [
      'a done result',
      bodyOf('reportLease'),
      report(doneResult(task, { link_list: [link(task.url)] })),
    ],
    ['a failed result', bodyOf('reportLease'), report(failedResult(task, 'navigation_timeout'))],
    ['a not_modified result', bodyOf('reportLease'), report(notModifiedResult(task))],
    ['a rule', bodyOf('submitRules'), { rule_list: [ruleFor('a.example')] }],
    [
      'an undetermined rule',
      bodyOf('submitRules'),
      {
        rule_list: [
          ruleFor('a.example', { verdict: 'unknown', undetermined_reason: 'challenge_detected' }),
        ],
      },
    ],
  ])('%s and each of its mutations', (_name, check, body) => {
    expectSameVerdicts(check, body);
  });
});

/**
 * Every request body the three contracts declare, from its schema's own example: each mutation
 * judged alike by the quick form and the schema as written, and left alike (defaults filled).
 */
describe('the quick form of every request body: same verdicts as the schema as written', () => {
  const contracts: Array<[string, unknown, readonly OperationDefinition[]]> = [
    ['scheduler', schedulerDocument, schedulerOperationDefinitions],
    ['downloader', downloaderDocument, downloaderOperationDefinitions],
    ['sampler', samplerDocument, samplerOperationDefinitions],
  ];
  const cases = contracts.flatMap(([service, document, definitions]) => {
    const contract = document as OpenApiDocument;
    const validators = new ContractValidators(contract, service);
    return definitions.flatMap((definition) => {
      const operation = findOperation(contract, definition.method.toLowerCase(), definition.path);
      const schema = operation.requestBody?.content['application/json']?.schema;
      if (schema === undefined) return [];
      const example = exampleOf(contract, schema);
      const check = validators.requestBody(definition) as CompiledSchema;
      return [[`${service} ${definition.operationId}`, check, example] as const];
    });
  });

  it('finds the ten request bodies and an example of each', () => {
    expect(cases).toHaveLength(10);
    expect(cases.filter(([, , example]) => example === undefined)).toEqual([]);
  });

  it.each(cases)('%s: its example and each of its mutations', (_name, check, example) => {
    expectSameVerdicts(check, example);
  });
});

/**
 * `body` and each of its mutations: the quick form's verdict is the explaining check's, and both
 * leave the value alike. Both verdicts occur — the body passes, not every mutation does.
 */
function expectSameVerdicts(check: CompiledSchema, body: unknown): void {
  const mutations = mutationsOf(body);
  let acceptedCount = 0;
  for (const { path, value } of mutations) {
    const quick = structuredClone(value);
    const explaining = structuredClone(value);
    const verdicts = { path, quick: check.accepts(quick), explaining: check.validate(explaining) };
    expect(verdicts).toEqual({ path, quick: verdicts.explaining, explaining: verdicts.explaining });
    expect(quick).toEqual(explaining);
    if (verdicts.quick) acceptedCount += 1;
  }
  expect(check.accepts(structuredClone(body))).toBe(true);
  expect(acceptedCount).toBeLessThan(mutations.length);
}

/** The example of a body's schema: its own, or that of the component it refers to. */
function exampleOf(document: OpenApiDocument, schema: JsonSchema): unknown {
  const reference = schema.$ref;
  const target =
    typeof reference === 'string'
      ? document.components?.schemas?.[reference.replace('#/components/schemas/', '')]
      : schema;
  return target?.example;
}

const PROBES: readonly unknown[] = [
  null,
  '',
  'x',
  0,
  -1,
  1.5,
  true,
  {},
  [],
  'done',
  'empty',
  'failed',
  'not_modified',
  'navigation_timeout',
  'csr',
  'unknown',
  'challenge_detected',
  '0123456789abcdef0123456789abcdef',
  '2026-08-15T07:47:52Z',
];

/** `value` with each field (at any depth) deleted or replaced by each probe, and as it is. */
function mutationsOf(value: unknown): Array<{ path: string; value: unknown }> {
  const mutations: Array<{ path: string; value: unknown }> = [{ path: '', value }];
  const visit = (node: unknown, path: Array<string | number>) => {
    if (node === null || typeof node !== 'object') return;
    for (const key of Object.keys(node)) {
      const childPath = [...path, Array.isArray(node) ? Number(key) : key];
      mutations.push({ path: `${childPath.join('.')} deleted`, value: replaced(value, childPath) });
      for (const probe of PROBES) {
        mutations.push({
          path: `${childPath.join('.')} = ${JSON.stringify(probe)}`,
          value: replaced(value, childPath, { probe }),
        });
      }
      visit((node as Record<string, unknown>)[key], childPath);
    }
  };
  visit(value, []);
  return mutations;
}

/** A copy of `root` with the field at `path` set to `replacement.probe`, or deleted without one. */
function replaced(
  root: unknown,
  path: ReadonlyArray<string | number>,
  replacement?: { probe: unknown },
): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = structuredClone(replacement.probe);
  }
  return copy;
}
