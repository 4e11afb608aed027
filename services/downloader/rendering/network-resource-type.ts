import type { Protocol } from 'puppeteer-core';
import type { NetworkResourceType } from './rendered-page';

const RESOURCE_TYPES: Partial<Record<Protocol.Network.ResourceType, NetworkResourceType>> = {
  Document: 'document',
  Stylesheet: 'stylesheet',
  Image: 'image',
  Media: 'media',
  Font: 'font',
  Script: 'script',
  XHR: 'xhr',
  Fetch: 'xhr', // the contract counts fetch() as xhr
  WebSocket: 'websocket',
};

/** CDP resource type → contract network_log type; everything unlisted (ping, preflight, …) is other. */
export function networkResourceTypeOf(
  cdpType: Protocol.Network.ResourceType | undefined,
): NetworkResourceType {
  return (cdpType !== undefined ? RESOURCE_TYPES[cdpType] : undefined) ?? 'other';
}
