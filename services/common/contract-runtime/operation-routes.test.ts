import type { HttpMethod, OperationDefinition } from './operation-definition';
import { OperationRoutes } from './operation-routes';

function operation(method: HttpMethod, path: string, operationId: string) {
  const definition: OperationDefinition = {
    operationId,
    method,
    path,
    securitySchemes: [],
    queryParameterNames: [],
    pathParameterNames: [],
    hasRequestBody: method !== 'GET',
    successStatus: 200,
    retryPolicy: 'bounded',
  };
  return { definition };
}

const routes = new OperationRoutes([
  operation('GET', '/v1/lease', 'leaseTasks'),
  operation('POST', '/v1/report', 'reportLease'),
  operation('GET', '/v1/operator/concurrency-config', 'getConcurrencyConfig'),
  operation('PUT', '/v1/operator/concurrency-config', 'putConcurrencyConfig'),
  operation('GET', '/v1/operator/url-tasks/{url_hash}', 'getUrlTask'),
  operation('GET', '/v1/objects/{object_id}/parts/{part_name}', 'getObjectPart'),
]);

function operationIdOf(method: string, pathname: string): string | undefined {
  const match = routes.match(method, pathname);
  return match.kind === 'operation' ? match.operation.definition.operationId : undefined;
}

describe('OperationRoutes', () => {
  it('finds a fixed path by its method', () => {
    expect(operationIdOf('GET', '/v1/lease')).toBe('leaseTasks');
    expect(operationIdOf('POST', '/v1/report')).toBe('reportLease');
    expect(operationIdOf('PUT', '/v1/operator/concurrency-config')).toBe('putConcurrencyConfig');
  });

  it('matches as the Express router did: any letter case, one optional trailing slash', () => {
    expect(operationIdOf('GET', '/V1/Lease')).toBe('leaseTasks');
    expect(operationIdOf('GET', '/v1/lease/')).toBe('leaseTasks');
    expect(operationIdOf('GET', '/v1/lease//')).toBeUndefined();
    expect(operationIdOf('GET', '/v1/leases')).toBeUndefined();
    expect(operationIdOf('GET', '/v1/OPERATOR/url-tasks/AbC/')).toBe('getUrlTask');
  });

  it('captures each path parameter as received: one non-empty segment, still encoded', () => {
    expect(routes.match('GET', '/v1/operator/url-tasks/AbC%2Fd')).toEqual({
      kind: 'operation',
      operation: expect.anything(),
      encodedPathParameters: { url_hash: 'AbC%2Fd' },
    });
    expect(routes.match('GET', '/v1/objects/o-1/parts/Head')).toMatchObject({
      encodedPathParameters: { object_id: 'o-1', part_name: 'Head' },
    });
    expect(routes.match('GET', '/v1/operator/url-tasks/').kind).toBe('not-a-contract-path');
    expect(routes.match('GET', '/v1/operator/url-tasks/a/b').kind).toBe('not-a-contract-path');
  });

  it('names the methods a contract path allows when the method is not one of them', () => {
    expect(routes.match('HEAD', '/v1/lease')).toEqual({
      kind: 'method-not-allowed',
      allowedMethods: ['GET'],
    });
    expect(routes.match('DELETE', '/v1/operator/concurrency-config/')).toEqual({
      kind: 'method-not-allowed',
      allowedMethods: ['GET', 'PUT'],
    });
    expect(routes.match('POST', '/v1/operator/url-tasks/x')).toMatchObject({
      kind: 'method-not-allowed',
    });
  });

  it('leaves every other path to the service’s other routes', () => {
    for (const pathname of ['/', '/healthz', '/metrics', '/docs/', '/v1', '/v1/report/x']) {
      expect(routes.match('GET', pathname)).toEqual({ kind: 'not-a-contract-path' });
    }
  });

  it('takes the first template whose path and method both match, as Express did', () => {
    const overlapping = new OperationRoutes([
      operation('GET', '/v1/things/{thing_id}', 'getThing'),
      operation('DELETE', '/v1/{kind}/{item_id}', 'deleteItem'),
    ]);
    expect(overlapping.match('DELETE', '/v1/things/7')).toMatchObject({
      kind: 'operation',
      operation: { definition: { operationId: 'deleteItem' } },
      encodedPathParameters: { kind: 'things', item_id: '7' },
    });
    expect(overlapping.match('GET', '/v1/things/7')).toMatchObject({
      operation: { definition: { operationId: 'getThing' } },
    });
    expect(overlapping.match('PUT', '/v1/things/7')).toEqual({
      kind: 'method-not-allowed',
      allowedMethods: ['GET'],
    });
  });

  it('treats regular-expression characters in a template as plain text', () => {
    const dotted = new OperationRoutes([operation('GET', '/v1/a.b/{id}', 'dotted')]);
    expect(dotted.match('GET', '/v1/a.b/1').kind).toBe('operation');
    expect(dotted.match('GET', '/v1/aXb/1').kind).toBe('not-a-contract-path');
  });
});
