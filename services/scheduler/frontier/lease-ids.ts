import { randomBytes } from 'node:crypto';

/** CONTRACT.md §八: `lease_id` = `l-` + 16 lowercase hex. */
export function newLeaseId(): string {
  return `l-${randomBytes(8).toString('hex')}`;
}
