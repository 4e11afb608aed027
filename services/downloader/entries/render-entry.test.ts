import { ContractError } from '../../common/contract-runtime/contract-error';
import type { OriginGateway } from '../fetching/origin-gateway';
import { PageObjectStorageError } from '../fetching/page-object-storage-error';
import { RenderEntry } from './render-entry';

// The edge mapping of entry B alone: the gateway's domain error for a storage fault becomes the
// contract's 503 service_unavailable; any other error is not dressed up as a contract answer.
// (The gateway here only throws: the fetch path itself is covered by the entries' service tests.)
/** A request as the router hands it over: the contract's defaults filled in. */
const REQUEST = {
  url: 'http://127.0.0.2/a',
  timeout_ms: 30_000,
  should_render: true,
  wait_selector: null,
  should_store: true,
};

function entryWhoseGatewayThrows(error: Error): RenderEntry {
  const gateway = {
    fetch: async () => {
      throw error;
    },
  } as unknown as OriginGateway;
  return new RenderEntry(gateway, 0);
}

test('a page object that could not be stored is a 503, retry later', async () => {
  const entry = entryWhoseGatewayThrows(new PageObjectStorageError('http://127.0.0.2/a'));
  const failure = await entry.render(REQUEST).catch((error) => error);
  expect(failure).toBeInstanceOf(ContractError);
  expect(failure).toMatchObject({ status: 503, errorCode: 'service_unavailable' });
});

test('other errors pass through unmapped', async () => {
  const bug = new TypeError('a bug');
  const entry = entryWhoseGatewayThrows(bug);
  await expect(entry.render(REQUEST)).rejects.toBe(bug);
});
