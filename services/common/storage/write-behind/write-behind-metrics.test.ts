import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { WriteBehindLmdbBackend } from './write-behind-lmdb-backend';
import { registerWriteBehindMetrics } from './write-behind-metrics';

test('the metrics show the overlay, then what a checkpoint wrote', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'write-behind-metrics-'));
  const backend = await WriteBehindLmdbBackend.open(directory, {
    checkpoint: { rowCountThreshold: 1e9, maxDelayMs: 3_600_000 },
  });
  try {
    const registry = new Registry();
    registerWriteBehindMetrics(registry, backend);
    const figure = async (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await registry.metrics())?.[1]);

    for (let round = 0; round < 3; round += 1) {
      await backend.putMany(
        ['a', 'b'].map((name) => ({ key: Buffer.from(name), value: Buffer.from(`${round}`) })),
      );
    }
    expect(await figure('storage_write_behind_overlay_row_count')).toBe(2);
    expect(await figure('storage_write_behind_checkpoint_total')).toBe(0);
    // Far from its bound, no acknowledgement waited.
    expect(await figure('storage_write_behind_back_pressure_wait_total')).toBe(0);

    await backend.checkpointNow();
    expect(await figure('storage_write_behind_overlay_row_count')).toBe(0);
    expect(await figure('storage_write_behind_checkpoint_total')).toBe(1);
    expect(await figure('storage_write_behind_row_version_total')).toBe(6);
    expect(await figure('storage_write_behind_row_write_total')).toBe(2);
    // Two rows fit one slice: lmdb-js commits them in one transaction.
    expect(await figure('storage_write_behind_checkpoint_transaction_total')).toBe(1);
    // Counters advance by what changed: a second scrape without checkpoints reads the same.
    expect(await figure('storage_write_behind_row_write_total')).toBe(2);
  } finally {
    await backend.close();
    await rm(directory, { recursive: true, force: true });
  }
});
