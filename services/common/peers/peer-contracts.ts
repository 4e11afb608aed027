import { downloaderOperationDefinitions } from '../../../generated/downloader/operation-definitions';
import downloaderDocument from '../../../generated/downloader/openapi.json';
import { samplerOperationDefinitions } from '../../../generated/sampler/operation-definitions';
import samplerDocument from '../../../generated/sampler/openapi.json';
import { schedulerOperationDefinitions } from '../../../generated/scheduler/operation-definitions';
import schedulerDocument from '../../../generated/scheduler/openapi.json';
import type { PeerContract } from '../contract-runtime/unknown-answer-fields';

/**
 * Each service's contract as this build was generated from it — what a client compares a peer's
 * answers with (a field outside it means the peer runs a newer contract, or a name drifted).
 */
export const schedulerContract: PeerContract = {
  peerName: 'scheduler',
  document: schedulerDocument,
  definitions: schedulerOperationDefinitions,
};

export const downloaderContract: PeerContract = {
  peerName: 'downloader',
  document: downloaderDocument,
  definitions: downloaderOperationDefinitions,
};

export const samplerContract: PeerContract = {
  peerName: 'sampler',
  document: samplerDocument,
  definitions: samplerOperationDefinitions,
};
