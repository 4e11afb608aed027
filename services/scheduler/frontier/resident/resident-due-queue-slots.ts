import type { DueQueueSlots } from '../due-queue-slots';
import { indexKeyOf } from './resident-table-reads';
import type { ResidentUrlStore } from './resident-url-store';

/** The resident store's due heaps as the picker reads them slot by slot (due-queue-slots.ts). */
export function residentDueQueueSlots(store: ResidentUrlStore): DueQueueSlots {
  const { table, indexes } = store;
  return {
    walk: (domain, visit) => indexes.walk('due', domain, visit),
    urlHashOf: (slot) => table.urlHashOf(slot),
    taskOf: (slot) => table.read(slot),
    headOf: (slot) => ({ rank: table.priorityRankOf(slot), dueAtMs: table.dueAtMsOf(slot) }),
    keyOf: (slot) => indexKeyOf(table, 'due', slot),
  };
}
