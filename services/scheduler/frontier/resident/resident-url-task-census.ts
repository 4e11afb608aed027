import {
  DomainTally,
  type CensusedUrlTask,
  type ListedUrls,
  type UrlTaskCensus,
} from '../url-task-census';
import type { ResidentUrlStore } from './resident-url-store';

/**
 * The recount's pass over url_task on the resident store: slot by slot from the columns, with no
 * document, key or time text built, each slot's domain tally found by its domain code — a scan of
 * documents spent seconds at a million URLs on building them, and a lookup of each URL's domain by
 * name in a map of 100,000 most of the rest (~0.3 s). The URLs leases list are looked up first, by
 * hash (a few thousand at most).
 */
export function residentUrlTaskCensus(store: ResidentUrlStore): UrlTaskCensus {
  const { table, indexes } = store;
  return {
    tallyAll(listed: ListedUrls): DomainTally[] {
      const heldSlots = new Set<number>();
      for (const [urlHash, leaseId] of listed) {
        const slot = table.slotOf(urlHash);
        if (slot >= 0 && table.read(slot).applied_lease_id !== leaseId) heldSlots.add(slot);
      }
      const tallies: Array<DomainTally | undefined> = new Array(table.domainCodeCount);
      const task: CensusedUrlTask = {
        urlState: 'queued',
        isDue: false,
        priorityRank: Number.NaN,
        dueAtMs: Number.NaN,
        isHeld: false,
      };
      for (let slot = 0; slot < table.size; slot += 1) {
        const code = table.domainCodeOfSlot(slot);
        const tally = (tallies[code] ??= new DomainTally(table.domainOfCode(code)));
        task.urlState = table.urlStateOf(slot);
        task.isDue = indexes.placementOf(slot) === 'due';
        task.priorityRank = table.priorityRankOf(slot);
        task.dueAtMs = task.isDue ? table.dueAtMsOf(slot) : Number.NaN;
        task.isHeld = heldSlots.has(slot);
        tally.add(task);
      }
      return tallies.filter((tally): tally is DomainTally => tally !== undefined);
    },
  };
}
