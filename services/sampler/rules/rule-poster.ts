import type { Logger } from 'pino';
import type { components } from '../../../generated/scheduler/types';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import type { SamplerMetrics } from '../sampler-metrics';
import type { StateLock } from '../state-lock';
import type { DomainRuleWire, RuleOutboxDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { wireRuleOf } from './rule-book';

type RulesResponse = components['schemas']['RulesResponse'];

/** POST /v1/rules on the scheduler (one try; the poster retries). */
export type SubmitRules = (
  ruleList: DomainRuleWire[],
  signal: AbortSignal,
) => Promise<RulesResponse>;

export interface RulePosterDependencies {
  tables: SamplerTables;
  lock: StateLock;
  submitRules: SubmitRules;
  logger: Logger;
  metrics: SamplerMetrics;
  /** Rules per POST (the contract allows 1–1000). */
  batchSize?: number;
  /** First pause after a failed post; doubles up to `maxRetryPauseMs`. */
  retryPauseMs?: number;
  maxRetryPauseMs?: number;
  /** Look at the outbox at least this often even when nobody woke the poster. */
  idleCheckMs?: number;
}

/** Refusals that resending the same rule can never turn into acceptance. */
const PERMANENT_REFUSALS = new Set(['invalid_request', 'payload_too_large']);

/**
 * Carries `rule_outbox_task` rows to the scheduler: POST /v1/rules, retried until the scheduler
 * accepts (accepted, duplicate and outdated all mean "the scheduler has this rule or a newer one"),
 * then the row is cleared — unless a newer rule replaced it meanwhile. Rows survive a crash and
 * are sent at the next start. A batch the scheduler refuses as malformed is split until the one
 * rule at fault is found; that rule is logged, counted and dropped (resending could never succeed),
 * the others go through. Any other failure (scheduler down, a rotated token, 5xx) keeps every row
 * and retries with a growing pause.
 */
export class RulePoster {
  readonly #batchSize: number;
  readonly #retryPauseMs: number;
  readonly #maxRetryPauseMs: number;
  readonly #idleCheckMs: number;
  readonly #stopController = new AbortController();
  #wakeUp: (() => void) | undefined;
  #isWoken = false;
  #running: Promise<void> | undefined;

  constructor(private readonly dependencies: RulePosterDependencies) {
    this.#batchSize = dependencies.batchSize ?? 200;
    this.#retryPauseMs = dependencies.retryPauseMs ?? 500;
    this.#maxRetryPauseMs = dependencies.maxRetryPauseMs ?? 30_000;
    this.#idleCheckMs = dependencies.idleCheckMs ?? 30_000;
  }

  start(): void {
    this.#running ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stopController.abort();
    await this.#running;
  }

  /** A rule waits in the outbox. */
  wake(): void {
    this.#isWoken = true;
    this.#wakeUp?.();
  }

  /** Rows waiting in the outbox right now (operator view, tests). */
  async pendingCount(): Promise<number> {
    const page = await this.dependencies.tables.ruleOutbox.scan({ limit: 10_000 });
    return page.rows.length;
  }

  async #run(): Promise<void> {
    const signal = this.#stopController.signal;
    let pauseMs = this.#retryPauseMs;
    while (!signal.aborted) {
      this.#isWoken = false;
      let rows: RuleOutboxDocument[];
      try {
        const page = await this.dependencies.tables.ruleOutbox.scan({ limit: this.#batchSize });
        rows = page.rows.map((row) => row.value);
      } catch (error) {
        this.dependencies.logger.error({ err: error }, 'rule outbox unreadable; retrying');
        await this.#sleep(pauseMs, { isWakeable: false });
        continue;
      }
      this.dependencies.metrics.ruleOutboxDepth.set(rows.length);
      if (rows.length === 0) {
        await this.#sleep(this.#idleCheckMs, { isWakeable: true });
        continue;
      }
      const isDelivered = await this.#deliver(rows, signal);
      if (isDelivered) {
        pauseMs = this.#retryPauseMs;
      } else {
        // New rules do not cut a retry pause short: a scheduler that is down is not hammered.
        await this.#sleep(pauseMs, { isWakeable: false });
        pauseMs = Math.min(pauseMs * 2, this.#maxRetryPauseMs);
      }
    }
  }

  /** True when every row was settled (acknowledged or dropped for good). */
  async #deliver(rows: RuleOutboxDocument[], signal: AbortSignal): Promise<boolean> {
    const { submitRules, logger, metrics } = this.dependencies;
    try {
      const answer = await submitRules(
        rows.map((row) => wireRuleOf(row.domain_rule)),
        signal,
      );
      await this.#clear(rows);
      metrics.rulePostCount.inc({ result: 'acknowledged' }, rows.length);
      logger.info(
        {
          batch_rule_count: rows.length,
          accepted_count: answer.accepted_count,
          duplicate_count: answer.duplicate_count,
          outdated_count: answer.outdated_count,
        },
        'rules acknowledged by the scheduler',
      );
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      const isPermanent =
        error instanceof ContractHttpError && PERMANENT_REFUSALS.has(error.errorCode);
      if (!isPermanent) {
        metrics.rulePostCount.inc({ result: 'retry' }, rows.length);
        const log = error instanceof ContractHttpError && error.status < 500 ? 'error' : 'warn';
        logger[log](
          { err: error, batch_rule_count: rows.length },
          'POST /v1/rules failed; the rules stay in the outbox and are sent again',
        );
        return false;
      }
      if (rows.length > 1) {
        // Find the rule at fault: each half goes on its own.
        const middle = Math.ceil(rows.length / 2);
        const isFirstDone = await this.#deliver(rows.slice(0, middle), signal);
        const isSecondDone = await this.#deliver(rows.slice(middle), signal);
        return isFirstDone && isSecondDone;
      }
      const rule = rows[0].domain_rule;
      logger
        .child({ domain: rule.domain, verified_at: rule.verified_at })
        .error({ err: error }, 'the scheduler refuses this rule for good; dropped (dead letter)');
      metrics.rulePostCount.inc({ result: 'dead_letter' });
      await this.#clear(rows);
      return true;
    }
  }

  /** Clears the rows that still hold the rule that was sent (a newer one stays queued). */
  async #clear(rows: RuleOutboxDocument[]): Promise<void> {
    const { tables, lock } = this.dependencies;
    await lock.run(async () => {
      const current = await tables.ruleOutbox.getMany(rows.map((row) => row.domain_rule.domain));
      const settled = rows
        .filter(
          (row, index) => current[index]?.domain_rule.verified_at === row.domain_rule.verified_at,
        )
        .map((row) => row.domain_rule.domain);
      await tables.ruleOutbox.deleteMany(settled);
    });
  }

  /** Waits `ms`, or less when stopped — or, if `isWakeable`, when a rule was queued. */
  #sleep(ms: number, { isWakeable }: { isWakeable: boolean }): Promise<void> {
    const signal = this.#stopController.signal;
    if (signal.aborted || (isWakeable && this.#isWoken)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      if (isWakeable) this.#wakeUp = done;
    });
  }
}
