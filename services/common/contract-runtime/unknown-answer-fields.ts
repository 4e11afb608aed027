import type { ContractMetrics } from './contract-metrics';
import { ContractValidators } from './contract-validators';
import type { OpenApiDocument } from './openapi-document';
import type { OperationDefinition } from './operation-definition';
import { findUnknownFields } from './unknown-field-finder';

/** A peer's contract as this build knows it: its bundled document and operation table. */
export interface PeerContract {
  /** The peer's service name ("scheduler"), used in the metric's operation label. */
  readonly peerName: string;
  readonly document: unknown;
  readonly definitions: readonly OperationDefinition[];
}

/** Notified of every successful answer a client receives (`ContractClientOptions.onAnswer`). */
export type AnswerObserver = (operationId: string, status: number, answer: unknown) => void;

/**
 * Counts the fields of a peer's answers that this build's copy of the contract does not declare
 * — what a receiver of an older contract sees when its peer has moved on (a v1 downloader leasing
 * from a v2 scheduler gets `render_strategy`). The fields are kept (answers are returned as
 * parsed); counting makes the version skew visible on `<service>_contract_unknown_field_total`
 * with `location="answer"` and the operation as `peer.operationId`.
 */
export function countUnknownAnswerFields(
  peer: PeerContract,
  metrics: ContractMetrics,
): AnswerObserver {
  const validators = new ContractValidators(peer.document as OpenApiDocument, peer.peerName);
  const definitions = new Map(
    peer.definitions.map((definition) => [definition.operationId, definition]),
  );
  return (operationId, status, answer) => {
    const definition = definitions.get(operationId);
    const check = definition && validators.response(definition, status);
    if (!check) return;
    const fields = findUnknownFields(check.schema, answer, (reference) =>
      validators.resolveReference(reference),
    );
    for (const field of fields) {
      metrics.countUnknownField(`${peer.peerName}.${operationId}`, 'answer', field);
    }
  };
}
