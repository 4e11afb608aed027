import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { CallerIdentity } from '../../common/contract-runtime/caller-identity';
import type { SamplerMetrics } from '../sampler-metrics';
import { timeTextOf, type Clock } from '../sampler-clock';
import type { ConsumerTokenDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { readAllDocuments } from '../storage/table-walk';
import { ConsumerAlreadyExistsError, ConsumerNotFoundError } from './consumer-errors';

/**
 * `ct.{consumer_id}.{secret}`: the consumer id in the token lets one keyed read find its row; the
 * secret (256 random bits) is what proves possession. Consumer ids are `[a-z0-9-]`, so the dots
 * separate unambiguously.
 */
const TOKEN_PREFIX = 'ct.';
const SECRET_BYTES = 32;

export interface ConsumerTokenBookDependencies {
  tables: SamplerTables;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
}

export interface IssuedConsumerToken {
  consumerId: string;
  consumerToken: string;
  issuedAt: string;
}

function tokenHashOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * External consumers' tokens (`sampler:consumer_token:{consumer_id}`). Only a SHA-256 of each token
 * is stored — the token carries 256 random bits, so a fast hash is enough to make a leaked table
 * useless. Every request reads the row again: revocation takes effect on the very next request,
 * with no cache that could outlive it.
 */
export class ConsumerTokenBook {
  constructor(private readonly dependencies: ConsumerTokenBookDependencies) {}

  /** Issues a token for a new consumer, or a new one for a revoked consumer. */
  async issue(consumerId: string): Promise<IssuedConsumerToken> {
    const { tables, clock, metrics, logger } = this.dependencies;
    const consumerToken = `${TOKEN_PREFIX}${consumerId}.${randomBytes(SECRET_BYTES).toString('base64url')}`;
    const issuedAt = timeTextOf(clock.nowMs());
    const row: ConsumerTokenDocument = {
      consumer_id: consumerId,
      token_hash: tokenHashOf(consumerToken).toString('hex'),
      issued_at: issuedAt,
      revoked_at: null,
    };
    const previous = await tables.consumerTokens.get(consumerId);
    if (previous !== undefined && previous.revoked_at === null) {
      throw new ConsumerAlreadyExistsError(consumerId);
    }
    // Two operators issuing at once: exactly one token wins, the other is told it exists.
    const { isSwapped } = await tables.consumerTokens.compareAndSwap(consumerId, previous, row);
    if (!isSwapped) throw new ConsumerAlreadyExistsError(consumerId);
    metrics.consumerTokenCount.inc({ action: 'issued' });
    logger.info({ consumer_id: consumerId }, 'consumer token issued');
    return { consumerId, consumerToken, issuedAt };
  }

  /** Marks the token revoked; the caller then releases the consumer's claims. */
  async revoke(consumerId: string): Promise<ConsumerTokenDocument> {
    const { tables, clock, metrics, logger } = this.dependencies;
    const revokedAt = timeTextOf(clock.nowMs());
    let isNewlyRevoked = false;
    const row = await tables.consumerTokens.update(consumerId, (current) => {
      if (current === undefined || current.revoked_at !== null) return undefined;
      isNewlyRevoked = true;
      return { ...current, revoked_at: revokedAt };
    });
    if (row === undefined) throw new ConsumerNotFoundError(consumerId);
    if (isNewlyRevoked) {
      metrics.consumerTokenCount.inc({ action: 'revoked' });
      logger.info({ consumer_id: consumerId }, 'consumer token revoked');
    }
    return row;
  }

  list(): Promise<ConsumerTokenDocument[]> {
    return readAllDocuments(this.dependencies.tables.consumerTokens);
  }

  /** The consumer a presented token belongs to, or null (unknown, malformed or revoked). */
  async authenticate(token: string): Promise<CallerIdentity | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const consumerId = token.slice(TOKEN_PREFIX.length).split('.')[0];
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(consumerId)) return null;
    const row = await this.dependencies.tables.consumerTokens.get(consumerId);
    if (row === undefined || row.revoked_at !== null) return null;
    const isMatch = timingSafeEqual(tokenHashOf(token), Buffer.from(row.token_hash, 'hex'));
    return isMatch ? { tokenKind: 'consumer', consumerId } : null;
  }
}
