import type { Response } from 'express';
import type { ErrorBodyWire } from './contract-error';

/** Writes the contract error body; 429 answers also carry Retry-After. */
export function sendErrorBody(response: Response, status: number, body: ErrorBodyWire): void {
  if (body.retry_after_seconds !== undefined) {
    response.setHeader('Retry-After', String(body.retry_after_seconds));
  }
  response.status(status).json(body);
}
