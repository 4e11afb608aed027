import type { RequestListener } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import { answerLogLevel } from '../contract-runtime/answer-log-level';
import type { ContractRequestHandler } from '../contract-runtime/contract-router';
import { sendErrorBody } from '../contract-runtime/error-answer';
import { addApiReferenceRoutes } from './api-reference-routes';

export interface ServiceSurfaceOptions {
  serviceName: string;
  logger: Logger;
  registry: Registry;
  /** The generated contract router of this service. */
  contractRouter: ContractRequestHandler;
  /** The bundled OpenAPI document (generated/<service>/openapi.json) for the API reference. */
  apiDocument: { info: { title: string } };
  startedAt: string;
  /** Asked on every /healthz (an HTTP thread asks the main thread: hence a promise). */
  isReady: () => boolean | Promise<boolean>;
  /** The /metrics exposition, when it is more than `registry`'s (an HTTP thread's merge). */
  readMetrics?: () => Promise<string>;
  /** Non-contract routes such as operator pages. */
  addExtraRoutes?: (app: Express) => void;
}

/**
 * Assembles a service's HTTP surface: the contract router first, on node:http's request and
 * response (nearly every request is one of its operations, and it logs its own request lines);
 * then, in Express, /healthz, /metrics, the API reference, optional operator pages, and JSON
 * answers (contract error body) for unknown routes and faults.
 */
export function createServiceRequestListener(options: ServiceSurfaceOptions): RequestListener {
  const app = createRoutesApp(options);
  return (request, response) => {
    options.contractRouter(request, response, () => void app(request, response));
  };
}

/** The Express app of every route but the contract's. */
function createRoutesApp(options: ServiceSurfaceOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Answers are never cached: no ETag (Express hashes every JSON body for one), and so no 304 for a
  // conditional GET (the contract's own answers are written without one: error-answer.ts).
  app.set('etag', false);
  app.use(
    pinoHttp({
      logger: options.logger,
      customLogLevel: (_request, response, error) =>
        error ? 'error' : answerLogLevel(response.statusCode),
      // For every 5xx pino-http makes up an Error ("failed with status code 502") and logs its
      // stack — a trace of the logger itself, pointing at nothing. A real fault is logged where
      // it happened, with its own stack (the router, the error handler below); the request line
      // says only what was answered.
      customErrorObject: (_request, _response, _error, fields: Record<string, unknown>) => ({
        res: fields.res,
        responseTime: fields.responseTime,
      }),
      customErrorMessage: () => 'request completed',
      autoLogging: {
        ignore: (request) =>
          request.url === '/healthz' ||
          request.url === '/metrics' ||
          request.url === '/favicon.ico',
      },
      // Only what an operator needs; the headers would carry the bearer token.
      serializers: {
        req: (request: { method: string; url: string }) => ({
          method: request.method,
          url: request.url,
        }),
        res: (response: { statusCode: number }) => ({ status_code: response.statusCode }),
      },
    }),
  );

  app.get('/healthz', async (_request, response) => {
    const isReady = await options.isReady();
    response.status(isReady ? 200 : 503).json({
      service_name: options.serviceName,
      is_ready: isReady,
      started_at: options.startedAt,
    });
  });
  // Browsers ask every page's origin for an icon; answer "none" instead of a logged 404.
  app.get('/favicon.ico', (_request, response) => {
    response.status(204).end();
  });
  app.get('/metrics', async (_request, response) => {
    const text = await (options.readMetrics?.() ?? options.registry.metrics());
    response.type(options.registry.contentType).send(text);
  });
  addApiReferenceRoutes(app, options.apiDocument, options.apiDocument.info.title);
  options.addExtraRoutes?.(app);

  app.use((request: Request, response: Response) => {
    sendErrorBody(response, 404, {
      error_code: 'route_not_found',
      message: `no route ${request.method} ${request.path}`,
    });
  });
  app.use((error: unknown, request: Request, response: Response, _next: NextFunction) => {
    if (response.headersSent) return;
    if (isClientRequestError(error)) {
      sendErrorBody(response, 400, {
        error_code: 'invalid_request',
        // A URIError comes from the router decoding a path parameter (`%ZZ`, a lone surrogate).
        message:
          error instanceof URIError
            ? `path: malformed percent-encoding in ${JSON.stringify(request.path.slice(0, 200))}`
            : 'malformed request',
      });
      return;
    }
    options.logger.error({ err: error }, 'unhandled error outside the contract router');
    sendErrorBody(response, 500, { error_code: 'internal_error', message: 'unexpected error' });
  });
  return app;
}

/** Errors Express or its parsers mark as the client's (status 400), outside the contract router. */
function isClientRequestError(error: unknown): boolean {
  return error instanceof URIError || (error as { status?: unknown } | null)?.status === 400;
}
