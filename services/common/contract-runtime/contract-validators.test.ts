import downloaderDocument from '../../../generated/downloader/openapi.json';
import { downloaderOperationDefinitions } from '../../../generated/downloader/operation-definitions';
import samplerDocument from '../../../generated/sampler/openapi.json';
import { samplerOperationDefinitions } from '../../../generated/sampler/operation-definitions';
import schedulerDocument from '../../../generated/scheduler/openapi.json';
import { doneResult, failedResult, link } from '../../scheduler/testing/contract-fixtures';
import { schedulerOperationDefinitions } from '../../../generated/scheduler/operation-definitions';
import { ContractValidators, type CompiledSchema } from './contract-validators';
import type { OpenApiDocument } from './openapi-document';

const validators = new ContractValidators(schedulerDocument as OpenApiDocument, 'scheduler');
const task = { url: 'http://127.0.0.1:8080/a', url_hash: '0123456789abcdef0123456789abcdef' };

function operation(operationId: string) {
  const definition = schedulerOperationDefinitions.find(
    (candidate) => candidate.operationId === operationId,
  );
  if (definition === undefined) throw new Error(`no operation ${operationId}`);
  return definition;
}

const reportBody = validators.requestBody(operation('reportLease')) as CompiledSchema;
const leaseQuery = validators.parameters(operation('leaseTasks'), 'query');

function report(resultList: unknown[]): Record<string, unknown> {
  return { lease_id: 'l-0123456789abcdef', worker_id: 'w1', result_list: resultList };
}

/** Runs both checks on copies (both may apply defaults and coercions) and compares them. */
function bothChecks(check: CompiledSchema, value: unknown) {
  const quick = structuredClone(value);
  const explaining = structuredClone(value);
  const isAccepted = check.accepts(quick);
  const isValid = check.validate(explaining);
  return { isAccepted, isValid, quick, explaining };
}

describe('ContractValidators: the quick check and the explaining check agree', () => {
  it.each([
    ['a done result with links', report([doneResult(task, { link_list: [link(task.url)] })])],
    ['a failed result', report([failedResult(task, 'navigation_timeout')])],
    ['an empty report', report([])],
  ])('both accept %s, leaving the same value', (_name, body) => {
    const outcome = bothChecks(reportBody, body);
    expect(outcome.isAccepted).toBe(true);
    expect(outcome.isValid).toBe(true);
    expect(outcome.quick).toEqual(outcome.explaining);
  });

  it.each([
    ['a missing lease_id', { worker_id: 'w1', result_list: [] }],
    ['a done result without its object_id', report([doneResult(task, { object_id: null })])],
    [
      'a failed result with an object_id',
      report([{ ...failedResult(task, 'navigation_timeout'), object_id: 'x' }]),
    ],
    ['a result_list that is not a list', { ...report([]), result_list: {} }],
  ])('both refuse %s', (_name, body) => {
    const outcome = bothChecks(reportBody, body);
    expect(outcome.isAccepted).toBe(false);
    expect(outcome.isValid).toBe(false);
  });

  it('applies the same defaults and coercions to parameters', () => {
    const outcome = bothChecks(leaseQuery, { worker_id: 'w3', task_count: '7' });
    expect(outcome.isAccepted).toBe(true);
    expect(outcome.quick).toEqual({
      worker_id: 'w3',
      task_count: 7,
      lease_ttl_seconds: 120,
      wait_ms: 0,
    });
    expect(outcome.quick).toEqual(outcome.explaining);
  });
});

describe('ContractValidators: failures are explained after the quick check refused', () => {
  it('names the variant rule a result breaks and the code its schema gives', () => {
    const body = report([
      {
        ...failedResult(task, 'navigation_timeout'),
        object_id: 'abcdefabcdefabcdefabcdefabcdefab',
      },
    ]);
    expect(reportBody.accepts(body)).toBe(false);
    const failure = validators.describeFailure(reportBody, body, 'body');
    expect(failure.violationErrorCode).toBe('fetch_status_mismatch');
    expect(failure.message).toContain('body.result_list[0]');
    expect(failure.message).toContain('object_id');
  });

  it('names every broken parameter, not only the first the quick check met', () => {
    const query = { worker_id: 'w3', task_count: '0', lease_ttl_seconds: '999999' };
    expect(leaseQuery.accepts(query)).toBe(false);
    const message = validators.describeParameterFailure(leaseQuery, query, 'query');
    expect(message).toContain('query.task_count');
    expect(message).toContain('query.lease_ttl_seconds');
  });
});

describe('ContractValidators: the explaining checks, compiled at the first refusal', () => {
  // A router compiles its quick checks at start-up and these only when a value is refused: this
  // is where a contract whose explaining checks would not compile fails, before it ships.
  it.each([
    ['scheduler', schedulerDocument, schedulerOperationDefinitions],
    ['downloader', downloaderDocument, downloaderOperationDefinitions],
    ['sampler', samplerDocument, samplerOperationDefinitions],
  ])("compile for every operation of the %s's contract", (service, document, definitions) => {
    const serviceValidators = new ContractValidators(document as OpenApiDocument, service);
    const explaining = definitions.flatMap((definition) => [
      serviceValidators.parameters(definition, 'path').validate,
      serviceValidators.parameters(definition, 'query').validate,
      serviceValidators.requestBody(definition)?.validate,
      serviceValidators.requestBody(definition)?.validateWithoutVariants,
      serviceValidators.response(definition, definition.successStatus)?.validate,
      serviceValidators.response(definition, definition.successStatus)?.validateWithoutVariants,
    ]);
    expect(definitions.length).toBeGreaterThan(0);
    for (const validate of explaining) {
      if (validate !== undefined) expect(typeof validate).toBe('function');
    }
  });

  it('are compiled once, when first read', () => {
    const fresh = new ContractValidators(schedulerDocument as OpenApiDocument, 'scheduler');
    const check = fresh.requestBody(operation('reportLease')) as CompiledSchema;
    expect(check.validate).toBe(check.validate);
    expect(check.validateWithoutVariants).toBe(check.validateWithoutVariants);
  });
});
