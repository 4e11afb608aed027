/**
 * Which leases are live (issued, neither reported nor reclaimed), for the operator view. Rebuilt
 * from lease_task at start-up; lease_task holds live leases only, so that is a small scan.
 */
export class LiveLeaseRegistry {
  readonly #leaseIds = new Set<string>();

  add(leaseId: string): void {
    this.#leaseIds.add(leaseId);
  }

  remove(leaseId: string): void {
    this.#leaseIds.delete(leaseId);
  }

  get count(): number {
    return this.#leaseIds.size;
  }
}
