/**
 * Leases a mutation is working on whose writes are not durable yet (a report being applied, a
 * reclaim being written). Storage still shows them as live until then, so the reclaimer must leave
 * them alone rather than reclaim — and count — them a second time.
 */
export class BusyLeases {
  readonly #holdCounts = new Map<string, number>();

  hold(leaseId: string): void {
    this.#holdCounts.set(leaseId, (this.#holdCounts.get(leaseId) ?? 0) + 1);
  }

  release(leaseId: string): void {
    const count = (this.#holdCounts.get(leaseId) ?? 0) - 1;
    if (count > 0) this.#holdCounts.set(leaseId, count);
    else this.#holdCounts.delete(leaseId);
  }

  isBusy(leaseId: string): boolean {
    return this.#holdCounts.has(leaseId);
  }
}
