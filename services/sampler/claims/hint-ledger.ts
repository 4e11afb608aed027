import { primaryKey } from '../../common/storage/primary-key';
import { msOfTimeText, type Clock } from '../sampler-clock';
import type { VerdictHintResultDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { walkTable } from '../storage/table-walk';

/** Index rows live a week: the operator view reads 24 h and the most recent rows. */
const INDEX_TTL_SECONDS = 7 * 86_400;
/** Larger than any Unix ms until the year 2286; 13 digits keep byte order numeric. */
const ORDER_CEILING = 9_999_999_999_999;

/** `{received_order}`: newest first in an ascending scan. */
function receivedOrderOf(receivedAtMs: number): string {
  return String(ORDER_CEILING - receivedAtMs).padStart(13, '0');
}

export interface HintWindowTotals {
  hintCount: number;
  ruleWrittenCount: number;
}

/**
 * The hints' record for the operator view: `verdict_hint_result` is keyed by the idempotency key
 * (claim_id + domain); `verdict_hint_index` orders them newest first and carries each decision,
 * so the 24 h totals are one scan of the window and never touch the results.
 */
export class HintLedger {
  constructor(
    private readonly tables: SamplerTables,
    private readonly clock: Clock,
  ) {}

  async index(result: VerdictHintResultDocument, receivedAtMs: number): Promise<void> {
    await this.tables.hintIndex.put(
      primaryKey(receivedOrderOf(receivedAtMs), result.claim_id, result.domain),
      { hint_decision: result.hint_decision, received_at: result.received_at },
      { ttlSeconds: INDEX_TTL_SECONDS },
    );
  }

  /** The newest `limit` hints with their decisions. */
  async recent(limit: number): Promise<VerdictHintResultDocument[]> {
    const page = await this.tables.hintIndex.scan({ limit });
    const results = await this.tables.hintResults.getMany(
      page.rows.map((row) => primaryKey(row.primaryKey.parts[1], row.primaryKey.parts[2])),
    );
    return results.filter((result): result is VerdictHintResultDocument => result !== undefined);
  }

  /** Hints received within the last `windowSeconds`, and how many became rules. */
  async windowTotals(windowSeconds: number): Promise<HintWindowTotals> {
    const oldestMs = this.clock.nowMs() - windowSeconds * 1000;
    const totals: HintWindowTotals = { hintCount: 0, ruleWrittenCount: 0 };
    // Newest first: the walk stops at the first hint older than the window.
    await walkTable(this.tables.hintIndex, ({ value }) => {
      if (msOfTimeText(value.received_at) <= oldestMs) return false;
      totals.hintCount += 1;
      if (value.hint_decision === 'rule_written') totals.ruleWrittenCount += 1;
    });
    return totals;
  }
}
