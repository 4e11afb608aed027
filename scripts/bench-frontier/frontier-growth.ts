import pino from 'pino';
import { Registry } from 'prom-client';
import { readSettings } from '../../services/common/config/settings';
import type { OrderedKeyValueBackend } from '../../services/common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../services/common/storage/service-keyspace';
import { commitModeOf } from '../../services/scheduler/frontier/commit-queue';
import { Frontier } from '../../services/scheduler/frontier/frontier';
import {
  frontierSettingsOf,
  SCHEDULER_SETTINGS,
} from '../../services/scheduler/scheduler-settings';
import { log, type Budget } from './bench-log';
import type { BenchCorpus } from './bench-corpus';

/**
 * Grows the frontier in the storage `openBackend` opens to `targetSize` URLs through the scheduler's
 * own frontier module (the same rules and admission code as POST /v1/rules and /v1/seeds, without
 * HTTP), while no scheduler process runs on it; then stops it cleanly and closes the storage.
 */
export async function growFrontier(
  openBackend: () => Promise<OrderedKeyValueBackend>,
  corpus: BenchCorpus,
  fromSize: number,
  targetSize: number,
  budget: Budget,
): Promise<void> {
  const backend = await openBackend();
  try {
    await growFrontierIn(backend, corpus, fromSize, targetSize, budget);
  } finally {
    await backend.close();
  }
}

async function growFrontierIn(
  backend: OrderedKeyValueBackend,
  corpus: BenchCorpus,
  fromSize: number,
  targetSize: number,
  budget: Budget,
): Promise<void> {
  const frontier = await Frontier.open({
    keyspace: openServiceKeyspace('scheduler', backend),
    clock: { nowMs: () => Date.now() },
    settings: frontierSettingsOf(readSettings(SCHEDULER_SETTINGS, {}, {})),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    probe: undefined,
    commitMode: commitModeOf(backend),
  });
  try {
    if (fromSize === 0) {
      for (let start = 0; start < corpus.domainCount; start += 1000) {
        const end = Math.min(corpus.domainCount, start + 1000);
        await frontier.submitRules(
          Array.from({ length: end - start }, (_, offset) => corpus.ruleOf(start + offset)),
        );
      }
      log(`  ${corpus.domainCount.toLocaleString('en-US')} rules stored`);
    }
    const chunk = 10_000;
    for (let start = fromSize; start < targetSize; start += chunk) {
      budget.assertLeft();
      const seeds = [];
      for (let index = start; index < Math.min(targetSize, start + chunk); index += 1) {
        seeds.push({ url: corpus.urlOf(index) });
      }
      const answer = await frontier.submitSeeds(seeds);
      // A URL may already be in the frontier as a link found in an earlier stage's reports.
      const refused = answer.rejected_list.find((seed) => seed.reject_reason !== 'duplicate_url');
      if (refused !== undefined) throw new Error(`seed refused: ${JSON.stringify(refused)}`);
      if ((start - fromSize) % 100_000 === 0 && start > fromSize) {
        log(`  frontier at ${start.toLocaleString('en-US')} URLs`);
      }
    }
  } finally {
    await frontier.stop();
  }
}
