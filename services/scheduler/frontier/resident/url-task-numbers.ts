import type { UrlTaskDocument } from '../frontier-documents';
import { exactMsOfTimeText, timeTextOf } from '../time-text';

/*
 * A url_task's numbers as the resident store keeps them — in its table's columns and in the
 * journal's url_task records (resident-url-task-codec.ts): one double each, null as NaN, times as
 * Unix ms of their canonical text.
 */
export const PRIORITY_RANK = 0;
export const SEED_PRIORITY_RANK = 1;
export const PRIORITY_RANK_OFFSET = 2;
export const DUE_AT = 3;
export const ATTEMPT_COUNT = 4;
export const LEASE_EXPIRY_COUNT = 5;
export const LAST_MODIFIED_AT = 6;
export const FETCHED_AT = 7;
export const REVISIT_INTERVAL_SECONDS = 8;
export const DISCOVERED_AT = 9;
export const UPDATED_AT = 10;
export const ROBOTS_RULE_VERIFIED_AT = 11;
export const LAST_RENDERED_AT = 12;
export const NUMBER_COUNT = 13;

/** A document the resident store cannot hold exactly (a bad url_hash, a time not in canonical form). */
export class ResidentValueError extends RangeError {}

/** Writes `task`'s numbers into `numbers`; refuses a time that would not read back as it came. */
export function readUrlTaskNumbers(task: UrlTaskDocument, numbers: Float64Array): Float64Array {
  numbers[PRIORITY_RANK] = task.priority_rank ?? Number.NaN;
  numbers[SEED_PRIORITY_RANK] = task.seed_priority_rank ?? Number.NaN;
  numbers[PRIORITY_RANK_OFFSET] = task.priority_rank_offset;
  numbers[DUE_AT] = timeMs('due_at', task.due_at);
  numbers[ATTEMPT_COUNT] = task.attempt_count;
  numbers[LEASE_EXPIRY_COUNT] = task.lease_expiry_count;
  numbers[LAST_MODIFIED_AT] = nullableTimeMs('last_modified_at', task.last_modified_at);
  numbers[FETCHED_AT] = nullableTimeMs('fetched_at', task.fetched_at);
  numbers[REVISIT_INTERVAL_SECONDS] = task.revisit_interval_seconds ?? Number.NaN;
  numbers[DISCOVERED_AT] = timeMs('discovered_at', task.discovered_at);
  numbers[UPDATED_AT] = timeMs('updated_at', task.updated_at);
  numbers[ROBOTS_RULE_VERIFIED_AT] = nullableTimeMs(
    'robots_rule_verified_at',
    task.robots_rule_verified_at,
  );
  numbers[LAST_RENDERED_AT] = nullableTimeMs('last_rendered_at', task.last_rendered_at);
  return numbers;
}

export function nullableNumber(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

export function nullableTime(ms: number): string | null {
  return Number.isNaN(ms) ? null : timeTextOf(ms);
}

function timeMs(field: string, text: string): number {
  const ms = exactMsOfTimeText(text);
  if (Number.isNaN(ms)) {
    throw new ResidentValueError(`${field} is not a time like 2026-08-15T07:47:52Z: ${text}`);
  }
  return ms;
}

function nullableTimeMs(field: string, text: string | null): number {
  return text === null ? Number.NaN : timeMs(field, text);
}
