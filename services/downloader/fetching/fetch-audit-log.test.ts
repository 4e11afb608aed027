import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openStorageBackend } from '../../common/storage/open-storage-backend';
import type { OrderedKeyValueBackend } from '../../common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { primaryKey } from '../../common/storage/primary-key';
import { urlHash } from '../../common/url/url-hash';
import { formatContractTime } from '../rendering/contract-time';
import { failedOutcome } from '../rendering/outcome-builders';
import { FetchAuditLog, type FetchAuditFacts, type FetchAuditRecord } from './fetch-audit-log';

/*
 * The audit row is written in the background (nothing answers later for it), so what must hold is
 * that drain() — the service's stop — leaves every issued record in storage, two fetches of one URL
 * in one second included, and that a write that cannot happen is logged, never thrown.
 */

let directory: string;
let backend: OrderedKeyValueBackend;
const warnings: string[] = [];
const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fetch-audit-'));
  backend = await openStorageBackend({ backendName: 'lmdb', dataDirectory: directory });
  warnings.length = 0;
});

afterEach(async () => {
  await backend.close();
  await rm(directory, { recursive: true, force: true });
});

function facts(url: string, dispatchedAtMs: number, httpStatus: number): FetchAuditFacts {
  return {
    domain: 'shop.example',
    url,
    entryName: 'render_endpoint',
    isRendered: true,
    dispatchedAtMs,
    objectId: null,
    outcome: failedOutcome(
      'http_server_error',
      'answered 5xx',
      new Date(dispatchedAtMs),
      httpStatus,
    ),
  };
}

it('drain() leaves every record issued in storage, two fetches of one URL in a second in one row', async () => {
  const table = openServiceKeyspace('downloader', backend).table<FetchAuditRecord>(
    'fetch_audit_record',
  );
  const log = new FetchAuditLog(table, 7, logger);
  const secondMs = Date.parse('2026-12-04T05:00:00Z');
  const url = 'http://shop.example/item/1';
  log.record(facts(url, secondMs + 100, 500));
  log.record(facts(url, secondMs + 700, 503));
  log.record(facts('http://shop.example/item/2', secondMs + 200, 502));
  await log.drain();

  const key = (recordUrl: string) =>
    primaryKey('shop.example', formatContractTime(new Date(secondMs)), urlHash(recordUrl));
  const first = await table.get(key(url));
  expect(first?.fetch_list.map((entry) => entry.http_status).sort()).toEqual([500, 503]);
  expect((await table.get(key('http://shop.example/item/2')))?.fetch_list).toHaveLength(1);
  expect(warnings).toEqual([]);
});

it('a record that cannot be written is logged, and drain() still settles', async () => {
  const table = openServiceKeyspace('downloader', backend).table<FetchAuditRecord>(
    'fetch_audit_record',
  );
  const log = new FetchAuditLog(table, 7, logger);
  await backend.close();
  log.record(facts('http://shop.example/item/3', Date.now(), 500));
  await expect(log.drain()).resolves.toBeUndefined();
  expect(warnings.join('')).toContain('fetch audit record could not be written');
});
