import { randomHex } from '../../common/random/random-hex';

/** CONTRACT.md §八: `lease_id` = `l-` + 16 lowercase hex. */
export function newLeaseId(): string {
  return `l-${randomHex(16)}`;
}
