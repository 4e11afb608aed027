export { RenderEngine } from './render-engine';
export type { RenderEngineOptions } from './render-engine';
export { FAIL_REASONS } from './render-outcome';
export type {
  FailedOutcome,
  FailReason,
  NotModifiedOutcome,
  PageOutcome,
  RefusalReason,
  RefusedOutcome,
  RenderOutcome,
  RenderRequest,
} from './render-outcome';
export { DOM_POSITIONS, NETWORK_RESOURCE_TYPES } from './rendered-page';
export type {
  ConsoleError,
  DomPosition,
  HealthSignal,
  NetworkLogEntry,
  NetworkResourceType,
  PageFetchStatus,
  PageLink,
  PageStatistics,
  RenderedPage,
} from './rendered-page';
export type {
  RenderEngineObserver,
  RenderEngineStatistics,
  RenderFinishedEvent,
} from './render-engine-observer';
export { computeHealthSignal } from './health-signal';
export {
  contractTimeToHttpDate,
  formatContractTime,
  httpDateToContractTime,
} from './contract-time';
