import { isUtf8 } from 'node:buffer';
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { randomHex } from '../random/random-hex';
import { answerLogLevel } from './answer-log-level';
import { readBearerToken } from './bearer-token';
import {
  type CallerIdentity,
  type TokenAuthenticator,
  tokenKindBySecurityScheme,
} from './caller-identity';
import {
  badRequest,
  ContractError,
  internalError,
  invalidRequest,
  payloadTooLarge,
  unauthorized,
  wrongTokenKind,
  type ErrorBodyWire,
  type ErrorCode,
} from './contract-error';
import { ContractFieldPicker, type FieldPicker } from './contract-field-picker';
import type { ContractMetrics } from './contract-metrics';
import { ContractValidators, findMalformedNumericParameters } from './contract-validators';
import { sendErrorBody } from './error-answer';
import type { OperationDefinition } from './operation-definition';
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
   * The body's JSON text as received, when it holds exactly `body` — no unknown field was dropped
   * and the schema fills in no default — so that a forwarder may pass the text on instead of
   * writing `body` out again (forwarded-operation.ts). Read only when asked.
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
  /** Maximum JSON body size, e.g. '10mb'. */
  bodyLimit?: string;
  /**
   * Keep each body as received and offer it as `readBodyJson` (a forwarder's router: the HTTP
   * thread's). Off elsewhere: nobody would read it, and keeping it costs every request a Buffer
   * and a UTF-8 check.
   */
  offersReceivedBodyJson?: boolean;
}

export interface ContractRouterSpecification {
  document: OpenApiDocument;
  definitions: readonly OperationDefinition[];
  invokers: Readonly<Record<string, OperationInvoker>>;
}

/**
 * Builds the Express router of one service from its generated operation table: routing, bearer
 * authentication per the operation's security, ajv validation (query coercion), unknown-field
 * counting and dropping, the contract error body, and optional response validation.
 */
export function createContractRouter(
  specification: ContractRouterSpecification,
  options: ContractRouterOptions,
): Router {
  const validators = new ContractValidators(specification.document, options.serviceName);
  const fieldPicker = new ContractFieldPicker(specification.document);
  const router = express.Router();
  const parseJsonBody = express.json({
    limit: options.bodyLimit ?? '10mb',
    ...(options.offersReceivedBodyJson === true ? { verify: keepReceivedUtf8Body } : {}),
  });

  const methodsByPath = new Map<string, string[]>();
  for (const definition of specification.definitions) {
    const expressPath = toExpressPath(definition.path);
    methodsByPath.set(expressPath, [...(methodsByPath.get(expressPath) ?? []), definition.method]);
  }
  const answerMethodNotAllowed = (request: Request, response: Response) => {
    const methods = methodsByPath.get(request.route?.path as string) ?? [];
    response.setHeader('Allow', methods.join(', '));
    sendErrorBody(response, 405, {
      error_code: 'method_not_allowed',
      message: `${request.method} is not allowed on ${request.path}; allowed: ${methods.join(', ')}`,
    });
  };
  // Express answers HEAD with the GET handler; GET /v1/lease hands out a lease, so a HEAD would
  // lease URLs whose lease_id nobody ever sees. The contract declares no HEAD: 405 before GET.
  for (const expressPath of methodsByPath.keys()) router.head(expressPath, answerMethodNotAllowed);

  for (const definition of specification.definitions) {
    // Compile every schema now: a broken contract fails at start-up, not on the first request.
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
    const operation = { definition, invoker, pickBody, mayFillInBody };
    const register = lowercaseMethods[definition.method];
    router[register](toExpressPath(definition.path), (request: Request, response: Response) =>
      handleOperation(operation, validators, options, parseJsonBody, request, response),
    );
  }

  for (const expressPath of methodsByPath.keys()) router.all(expressPath, answerMethodNotAllowed);

  return router;
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

/**
 * Request bodies as received, by request, while they are valid UTF-8 without a byte-order mark —
 * the text then is what JSON.parse read (body-parser decodes other charsets and drops the mark;
 * invalid bytes, replaced, might not be replaced alike twice).
 */
const receivedUtf8Bodies = new WeakMap<object, Buffer>();

function keepReceivedUtf8Body(
  request: object,
  _response: unknown,
  body: Buffer,
  encoding: string,
): void {
  const hasByteOrderMark = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  if (encoding === 'utf-8' && !hasByteOrderMark && isUtf8(body)) {
    receivedUtf8Bodies.set(request, body);
  }
}

async function handleOperation(
  operation: RoutedOperation,
  validators: ContractValidators,
  options: ContractRouterOptions,
  parseJsonBody: express.RequestHandler,
  request: Request,
  response: Response,
): Promise<void> {
  const { definition, invoker } = operation;
  const startedAt = process.hrtime.bigint();
  const requestId = readRequestId(request);
  response.setHeader('X-Request-Id', requestId);
  const meta = requestMetaOf(requestId, null, options.logger, definition.operationId);
  let status = 500;
  try {
    // Authentication comes before body parsing: an anonymous caller learns nothing about the body.
    meta.caller = await authenticateCaller(definition, options.authenticate, request);
    if (definition.hasRequestBody) await runBodyParser(parseJsonBody, request, response);
    const input = validateInput(operation, validators, options, request, meta);
    const result = await invoker({ ...input, meta });
    if (options.shouldValidateResponses) {
      assertResponseMatches(definition, validators, definition.successStatus, result);
    }
    status = definition.successStatus;
    response.status(status).json(result);
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
  }
}

async function authenticateCaller(
  definition: OperationDefinition,
  authenticate: TokenAuthenticator,
  request: Request,
): Promise<CallerIdentity | null> {
  if (definition.securitySchemes.length === 0) return null;
  const authorization = request.header('authorization');
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
  request: Request,
  meta: RequestMeta,
): Omit<OperationInput, 'meta'> {
  const path = { ...request.params } as Record<string, unknown>;
  const pathCheck = validators.parameters(definition, 'path');
  assertPlainNumbers('path', pathCheck.schema, path);
  if (!pathCheck.accepts(path)) {
    throw invalidRequest(validators.describeParameterFailure(pathCheck, path, 'path'));
  }

  const query = { ...(request.query as Record<string, unknown>) };
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
    body = request.body;
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
    const received = receivedUtf8Bodies.get(request);
    if (unknownFields.length === 0 && !mayFillInBody && received !== undefined) {
      return { query, path, body, readBodyJson: () => received.toString('utf8') };
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

function readRequestId(request: Request): string {
  const given = request.header('x-request-id');
  if (given && /^[A-Za-z0-9._-]{1,64}$/.test(given)) return given;
  return `r-${randomHex(12)}`;
}

const lowercaseMethods = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  DELETE: 'delete',
  PATCH: 'patch',
} as const;

/** `/v1/objects/{object_id}` → `/v1/objects/:object_id`. */
export function toExpressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

function runBodyParser(
  parseJsonBody: express.RequestHandler,
  request: Request,
  response: Response,
): Promise<void> {
  return new Promise((resolve, reject) => {
    void parseJsonBody(request, response, (error?: unknown) =>
      error ? reject(toBodyParserError(error)) : resolve(),
    );
  });
}

/** JSON syntax errors and oversized bodies become contract errors instead of HTML pages. */
function toBodyParserError(error: unknown): ContractError {
  const parserError = error as { type?: string; status?: number; message?: string };
  if (parserError.type === 'entity.too.large') {
    return payloadTooLarge('request body exceeds the size limit');
  }
  if (parserError.type === 'entity.parse.failed') {
    return invalidRequest(`body: malformed JSON (${parserError.message ?? 'parse error'})`);
  }
  if (typeof parserError.status === 'number' && parserError.status < 500) {
    return invalidRequest(`body: ${parserError.message ?? 'unreadable'}`);
  }
  return internalError('the request body could not be read');
}
