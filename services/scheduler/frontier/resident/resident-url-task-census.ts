import type { CensusedUrlTask, ListedUrls, UrlTaskCensus } from '../url-task-census';
import type { ResidentUrlStore } from './resident-url-store';

/**
 * The recount's pass over url_task on the resident store: slot by slot from the columns, with no
 * document, key or time text built — a scan of documents spent seconds at a million URLs on
 * building them, which made a start after a crash three times slower than a clean one. The URLs
 * leases list are looked up first, by hash (a few thousand at most).
 */
export function residentUrlTaskCensus(store: ResidentUrlStore): UrlTaskCensus {
  const { table, indexes } = store;
  return {
    visitAll(listed: ListedUrls, visit: (task: Readonly<CensusedUrlTask>) => void): void {
      const heldSlots = new Set<number>();
      for (const [urlHash, leaseId] of listed) {
        const slot = table.slotOf(urlHash);
        if (slot >= 0 && table.read(slot).applied_lease_id !== leaseId) heldSlots.add(slot);
      }
      const task: CensusedUrlTask = {
        domain: '',
        urlState: 'queued',
        isDue: false,
        priorityRank: Number.NaN,
        dueAtMs: Number.NaN,
        isHeld: false,
      };
      for (let slot = 0; slot < table.size; slot += 1) {
        task.domain = table.domainOf(slot);
        task.urlState = table.urlStateOf(slot);
        task.isDue = indexes.placementOf(slot) === 'due';
        task.priorityRank = table.priorityRankOf(slot);
        task.dueAtMs = task.isDue ? table.dueAtMsOf(slot) : Number.NaN;
        task.isHeld = heldSlots.has(slot);
        visit(task);
      }
    },
  };
}
