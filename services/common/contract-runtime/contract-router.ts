import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Logger } from 'pino';
import { randomHex } from '../random/random-hex';
import { answerLogLevel } from './answer-log-level';
import { logAnsweredRequest } from './answered-request-log';
import { readBearerToken } from './bearer-token';
import {
  type CallerIdentity,
  type TokenAuthenticator,
  tokenKindBySecurityScheme,
} from './caller-identity';
import {
  badRequest,
  ContractError,
  invalidRequest,
  unauthorized,
  wrongTokenKind,
  type ErrorBodyWire,
  type ErrorCode,
} from './contract-error';
import { ContractFieldPicker, type FieldPicker } from './contract-field-picker';
import type { ContractMetrics } from './contract-metrics';
import { ContractValidators, findMalformedNumericParameters } from './contract-validators';
import { sendErrorBody, sendJson } from './error-answer';
import { JsonBodyReader, type ReadJsonBody } from './json-body-reader';
import type { OperationDefinition } from './operation-definition';
import { OperationRoutes } from './operation-routes';
import { findOperation, type JsonSchema, type OpenApiDocument } from './openapi-document';
import { requestMetaOf, type RequestMeta } from './request-meta';
import { declaresDefault } from './schema-default-finder';
import { findUnknownFields } from './unknown-field-finder';

/** The typed input a handler receives (the generated code narrows it per operation). */
export interface OperationInput {
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
  /**
   * The JSON text the body was parsed from, when it holds exactly `body` — no unknown field was
   * dropped and the schema fills in no default — so that a forwarder may pass the text on instead
   * of writing `body` out again (forwarded-operation.ts). Undefined for a body body-parser read
   * (json-body-reader.ts: compressed, chunked, another charset).
   */
  readBodyJson?: () => string;
  /**
   * What the HTTP thread's surface worked out from the checked body before forwarding the call
   * (HttpEdgeSurface.prepareOperations), or undefined: served on the event loop, or nothing to
   * prepare. A handler uses it in place of its own work, never instead of the body.
   */
  preparedOnThread?: unknown;
  meta: RequestMeta;
}

export type OperationInvoker = (input: OperationInput) => Promise<unknown>;

export interface ContractRouterOptions {
  serviceName: string;
  authenticate: TokenAuthenticator;
  logger: Logger;
  metrics: ContractMetrics;
  /** Validate every answer against the contract (on in tests; a mismatch becomes a 500). */
  shouldValidateResponses: boolean;
  /** Maximum JSON body size in bytes (10 MiB). */
  bodyLimitBytes?: number;
}

export interface ContractRouterSpecification {
  document: OpenApiDocument;
  definitions: readonly OperationDefinition[];
  invokers: Readonly<Record<string, OperationInvoker>>;
}

/**
 * A service's contract as one request handler, in the shape of connect middleware: it answers the
 * contract's paths and calls `next` for every other, so it serves on node:http directly (in front
 * of Express: create-service-request-listener.ts) or inside an Express app (the test fakes).
 */
export type ContractRequestHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Builds the handler of one service from its generated operation table: routing, bearer
 * authentication per the operation's security, ajv validation (query coercion), unknown-field
 * counting and dropping, the contract error body, the request line, and optional response
 * validation. It runs on node:http's request and response, not Express's: Express's routing and
 * response helpers and pino-http cost the serving thread ~375 µs per lease-and-report pair of the
 * ~775 it spent (docs/frontier-performance.md, forty-eighth session), more than anything else on
 * the frontier's per-request path. Express still serves the other routes.
 */
export function createContractRouter(
  specification: ContractRouterSpecification,
  options: ContractRouterOptions,
): ContractRequestHandler {
  const validators = new ContractValidators(specification.document, options.serviceName);
  const fieldPicker = new ContractFieldPicker(specification.document);
  const bodyReader = new JsonBodyReader(options.bodyLimitBytes ?? 10 * 1024 * 1024);

  const operations = specification.definitions.map((definition): RoutedOperation => {
    // Compile every quick check now: a broken contract fails at start-up, not on the first
    // request. The explaining checks compile at the first refusal (contract-validators.test.ts
    // compiles them for every service's contract).
    validators.parameters(definition, 'path');
    validators.parameters(definition, 'query');
    validators.requestBody(definition);
    if (options.shouldValidateResponses) validators.response(definition, definition.successStatus);

    const invoker = specification.invokers[definition.operationId];
    if (!invoker) throw new Error(`no invoker for operation ${definition.operationId}`);
    const pickBody = bodyPickerOf(specification.document, fieldPicker, definition);
    const bodyCheck = validators.requestBody(definition);
    const mayFillInBody =
      bodyCheck !== null &&
      declaresDefault(bodyCheck.schema, (reference) => validators.resolveReference(reference));
    return { definition, invoker, pickBody, mayFillInBody };
  });
  const routes = new OperationRoutes(operations);
  const context: RouterContext = { validators, options, bodyReader };

  return (request, response, next) => {
    const target = originFormOf(request.url ?? '/');
    if (target === null) {
      next();
      return;
    }
    const queryStart = target.indexOf('?');
    const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
    const method = request.method ?? 'GET';
    const match = routes.match(method, pathname);
    if (match.kind === 'not-a-contract-path') {
      next();
      return;
    }
    if (match.kind === 'method-not-allowed') {
      answerMethodNotAllowed(request, response, pathname, match.allowedMethods, options.logger);
      return;
    }
    const received: ReceivedRequest = {
      request,
      response,
      encodedPathParameters: match.encodedPathParameters,
      queryText: queryStart === -1 ? '' : target.slice(queryStart + 1),
    };
    void handleOperation(match.operation, context, received);
  };
}

/**
 * 405 with `Allow`. The contract declares no HEAD: GET /v1/lease hands out a lease, and a HEAD
 * would lease URLs whose lease_id nobody ever sees. Nor OPTIONS: a browser's preflight is refused.
 */
function answerMethodNotAllowed(
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  allowedMethods: readonly string[],
  logger: Logger,
): void {
  const allowed = allowedMethods.join(', ');
  const requestId = answerRequestId(request, response);
  response.setHeader('Allow', allowed);
  sendErrorBody(response, 405, {
    error_code: 'method_not_allowed',
    message: `${request.method} is not allowed on ${pathname}; allowed: ${allowed}`,
  });
  logAnsweredRequest(logger, request, 405, 0, requestId, null);
}

/**
 * The request target as a path and query, as Express's router read it (parseurl): as received
 * (origin form, nearly every request) or what follows the authority of the absolute form a client
 * may send through a proxy (`GET http://host/v1/lease`), without a fragment. Null for what names
 * no path (`OPTIONS *`).
 */
function originFormOf(received: string): string | null {
  const fragmentStart = received.indexOf('#');
  const target = fragmentStart === -1 ? received : received.slice(0, fragmentStart);
  if (target.startsWith('/')) return target;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target);
  if (authority === null) return null;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The picker that reduces an operation's request body to its declared fields, if it has one. */
function bodyPickerOf(
  document: OpenApiDocument,
  fieldPicker: ContractFieldPicker,
  definition: OperationDefinition,
): FieldPicker<unknown> | undefined {
  if (!definition.hasRequestBody) return undefined;
  const operation = findOperation(document, definition.method.toLowerCase(), definition.path);
  const schema = operation.requestBody?.content['application/json']?.schema;
  return schema === undefined ? undefined : fieldPicker.pickerOf(schema);
}

/** One route: its operation, the handler, and the picker that drops a body's unknown fields. */
interface RoutedOperation {
  definition: OperationDefinition;
  invoker: OperationInvoker;
  pickBody: FieldPicker<unknown> | undefined;
  /** Whether its body's schema declares a default, which the check may fill into a body. */
  mayFillInBody: boolean;
}

/** What every operation's handling shares: the checks, the options, the body reader. */
interface RouterContext {
  validators: ContractValidators;
  options: ContractRouterOptions;
  bodyReader: JsonBodyReader;
}

/** One request to an operation, as routed. */
interface ReceivedRequest {
  request: IncomingMessage;
  response: ServerResponse;
  encodedPathParameters: Record<string, string>;
  /** The request target after its `?` ('' without one). */
  queryText: string;
}

async function handleOperation(
  operation: RoutedOperation,
  { validators, options, bodyReader }: RouterContext,
  received: ReceivedRequest,
): Promise<void> {
  const { definition, invoker } = operation;
  const { request, response } = received;
  const startedAt = process.hrtime.bigint();
  const requestId = answerRequestId(request, response);
  const meta = requestMetaOf(requestId, null, options.logger, definition.operationId);
  let status = 500;
  try {
    // Authentication comes before body parsing: an anonymous caller learns nothing about the body.
    meta.caller = await authenticateCaller(definition, options.authenticate, request);
    const readBody = definition.hasRequestBody
      ? await bodyReader.read(request, response)
      : undefined;
    const input = validateInput(operation, validators, options, received, readBody, meta);
    const result = await invoker({ ...input, meta });
    if (options.shouldValidateResponses) {
      assertResponseMatches(definition, validators, definition.successStatus, result);
    }
    status = definition.successStatus;
    sendJson(response, status, result);
  } catch (error) {
    const answer = toErrorAnswer(error, meta.log);
    if (options.shouldValidateResponses) {
      assertErrorDeclared(definition, validators, answer.status, answer.body, meta.log);
    }
    status = answer.status;
    sendErrorBody(response, answer.status, answer.body);
  } finally {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    options.metrics.requestCount.inc({ operation: definition.operationId, status: String(status) });
    options.metrics.requestDuration.observe({ operation: definition.operationId }, seconds);
    const { operationId } = definition;
    logAnsweredRequest(options.logger, request, status, seconds * 1000, requestId, operationId);
  }
}

async function authenticateCaller(
  definition: OperationDefinition,
  authenticate: TokenAuthenticator,
  request: IncomingMessage,
): Promise<CallerIdentity | null> {
  if (definition.securitySchemes.length === 0) return null;
  const authorization = request.headers.authorization;
  if (!authorization?.trim()) {
    throw unauthorized('missing_token', 'Authorization: Bearer {token} is required');
  }
  const token = readBearerToken(authorization);
  if (token === null) {
    throw unauthorized('invalid_token', 'the Authorization header must be Bearer {token}');
  }
  const caller = await authenticate(token);
  if (caller === null) {
    throw unauthorized('invalid_token', 'the bearer token is unknown or revoked');
  }
  const acceptedKinds = definition.securitySchemes.map(
    (scheme) => tokenKindBySecurityScheme[scheme],
  );
  if (!acceptedKinds.includes(caller.tokenKind)) {
    throw wrongTokenKind(
      `this operation accepts a ${acceptedKinds.join(' or ')} token, not a ${caller.tokenKind} token`,
    );
  }
  return caller;
}

/**
 * The request's path, query and body, validated. Unknown fields and query parameters are accepted
 * and counted (CONTRACT.md §五) but never handed on: a field the contract does not define would
 * otherwise land in storage under whatever name the sender chose (a rule item with `"Extra": 1` is
 * kept without it). The body is reduced only when the count found something — a walk of hundreds
 * of nested results and links that nearly every request can skip.
 */
function validateInput(
  { definition, pickBody, mayFillInBody }: RoutedOperation,
  validators: ContractValidators,
  options: ContractRouterOptions,
  { encodedPathParameters, queryText }: ReceivedRequest,
  readBody: ReadJsonBody | undefined,
  meta: RequestMeta,
): Omit<OperationInput, 'meta'> {
  const path = decodePathParameters(encodedPathParameters);
  const pathCheck = validators.parameters(definition, 'path');
  assertPlainNumbers('path', pathCheck.schema, path);
  if (!pathCheck.accepts(path)) {
    throw invalidRequest(validators.describeParameterFailure(pathCheck, path, 'path'));
  }

  // Parsed as Express's 'simple' query parser did: node's querystring (a repeated name: an array).
  const query: Record<string, unknown> = { ...parseQueryString(queryText) };
  for (const name of Object.keys(query)) {
    if (!definition.queryParameterNames.includes(name)) {
      reportUnknownField(options, meta.log, definition, 'query', name);
      delete query[name];
    }
  }
  const queryCheck = validators.parameters(definition, 'query');
  assertPlainNumbers('query', queryCheck.schema, query);
  if (!queryCheck.accepts(query)) {
    throw invalidRequest(validators.describeParameterFailure(queryCheck, query, 'query'));
  }

  let body: unknown = undefined;
  const bodyCheck = validators.requestBody(definition);
  if (bodyCheck) {
    body = readBody?.value;
    if (body === undefined) {
      throw invalidRequest('body: a JSON body (Content-Type: application/json) is required');
    }
    const unknownFields = findUnknownFields(bodyCheck.schema, body, (reference) =>
      validators.resolveReference(reference),
    );
    for (const field of unknownFields) {
      reportUnknownField(options, meta.log, definition, 'body', field);
    }
    if (!bodyCheck.accepts(body)) {
      // A body that breaks only a variant rule answers the code its schema names for it.
      const failure = validators.describeFailure(bodyCheck, body, 'body');
      const code = (failure.violationErrorCode as ErrorCode | undefined) ?? 'invalid_request';
      throw badRequest(code, failure.message);
    }
    if (unknownFields.length > 0 && pickBody !== undefined) body = pickBody(body);
    const text = readBody?.text;
    if (unknownFields.length === 0 && !mayFillInBody && text !== undefined) {
      return { query, path, body, readBodyJson: () => text };
    }
  }
  return { query, path, body };
}

function assertPlainNumbers(
  location: 'path' | 'query',
  schema: JsonSchema,
  values: Record<string, unknown>,
): void {
  const malformed = findMalformedNumericParameters(schema, values);
  if (malformed.length > 0) {
    throw invalidRequest(
      malformed.map((name) => `${location}.${name}: must be a plain decimal number`).join('; '),
    );
  }
}

function reportUnknownField(
  options: ContractRouterOptions,
  log: Logger,
  definition: OperationDefinition,
  location: 'query' | 'body',
  field: string,
): void {
  options.metrics.countUnknownField(definition.operationId, location, field);
  log.debug({ location, field }, 'unknown request field accepted (not in the contract)');
}

function assertResponseMatches(
  definition: OperationDefinition,
  validators: ContractValidators,
  status: number,
  result: unknown,
): void {
  const check = validators.response(definition, status);
  if (check && !check.accepts(result)) {
    throw new ResponseContractViolation(
      `answer of ${definition.operationId} violates the contract: ${
        validators.describeFailure(check, result, 'response').message
      }`,
    );
  }
}

/** In tests, an error answer the operation does not declare is a bug worth a loud log. */
function assertErrorDeclared(
  definition: OperationDefinition,
  validators: ContractValidators,
  status: number,
  body: ErrorBodyWire,
  log: Logger,
): void {
  // 401/403/500/501/503 and validation errors are the router's own; only check declared statuses.
  if (!validators.isStatusDeclared(definition, status)) {
    log.error({ status, error_code: body.error_code }, 'error status not declared by the contract');
    return;
  }
  const codes = validators.declaredErrorCodes(definition, status);
  if (codes && !codes.includes(body.error_code)) {
    log.error(
      { status, error_code: body.error_code, declared: codes },
      'error_code not declared for this status by the contract',
    );
  }
}

class ResponseContractViolation extends Error {}

function toErrorAnswer(error: unknown, log: Logger): { status: number; body: ErrorBodyWire } {
  if (error instanceof ContractError) {
    if (error.status >= 500) {
      log[answerLogLevel(error.status)]({ error_code: error.errorCode }, error.message);
    }
    return { status: error.status, body: error.toBody() };
  }
  if (error instanceof ResponseContractViolation) {
    log.error(error.message);
    return { status: 500, body: { error_code: 'internal_error', message: error.message } };
  }
  log.error({ err: error }, 'unhandled error in handler');
  return {
    status: 500,
    body: { error_code: 'internal_error', message: 'unexpected error; see the service log' },
  };
}

/** The request's id (the caller's X-Request-Id if a plain token, else a new one), echoed. */
function answerRequestId(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const requestId =
    typeof given === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(given)
      ? given
      : `r-${randomHex(12)}`;
  response.setHeader('X-Request-Id', requestId);
  return requestId;
}

/** Each parameter percent-decoded; one that does not decode is the client's mistake (400). */
function decodePathParameters(encoded: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(encoded)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      // `%ZZ`, a lone `%`, an encoded lone surrogate.
      throw invalidRequest(
        `path: malformed percent-encoding in ${JSON.stringify(value.slice(0, 200))}`,
      );
    }
  }
  return decoded;
}
