/**
 * The web page object (CONTRACT.md, "Web page object") exactly as it goes on the wire: property
 * names are the contract's snake_case names, byte for byte. `object_id` is not here: storage
 * assigns it. Statistics travel in the report, next to the object, so they are a separate type.
 */

import type { components } from '../../../generated/downloader';
import type { components as SchedulerComponents } from '../../../generated/scheduler';

type Schemas = components['schemas'];
type SchedulerSchemas = SchedulerComponents['schemas'];

/** The contract's maxLength for URLs in link_list and network_log. */
export const MAX_WIRE_URL_LENGTH = 8192;

/** The contract's enums as runtime lists; `satisfies` refuses a value the generated enum lacks. */
export const NETWORK_RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'xhr',
  'websocket',
  'other',
] as const satisfies ReadonlyArray<Schemas['NetworkLogEntry']['type']>;
export type NetworkResourceType = Schemas['NetworkLogEntry']['type'];

export const DOM_POSITIONS = [
  'main',
  'navigation',
  'header',
  'footer',
  'aside',
  'other',
] as const satisfies ReadonlyArray<Schemas['LinkItem']['dom_position']>;
export type DomPosition = Schemas['LinkItem']['dom_position'];

// The shapes come from the generated contract types, never restated by hand: a renamed field in
// openapi/ then fails the build here instead of drifting.
export type NetworkLogEntry = Schemas['NetworkLogEntry'];
export type ConsoleError = Schemas['ConsoleError'];
export type PageLink = Schemas['LinkItem'];
export type HealthSignal = Schemas['HealthSignal'];
export type PageFetchStatus = Schemas['WebPageObject']['fetch_status'];
export type RenderedPage = Omit<Schemas['WebPageObject'], 'object_id'>;
/** The report's statistics (scheduler contract), computed next to the page. */
export type PageStatistics = SchedulerSchemas['ReportStatistics'];
