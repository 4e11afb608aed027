import type { DueQueueSlots } from '../due-queue-slots';
import { indexKeyOf } from './resident-table-reads';
import type { ResidentUrlStore } from './resident-url-store';

/** The resident store's due heaps as the picker reads them slot by slot (due-queue-slots.ts). */
export function residentDueQueueSlots(store: ResidentUrlStore): DueQueueSlots {
  const { table, indexes } = store;
  return {
    slotsOf(domain, offset, count) {
      const slots: number[] = [];
      if (count <= 0) return slots;
      let skipped = 0;
      indexes.walk('due', domain, (slot) => {
        if (skipped < offset) {
          skipped += 1;
          return true;
        }
        return slots.push(slot) < count;
      });
      return slots;
    },
    urlHashOf: (slot) => table.urlHashOf(slot),
    taskOf: (slot) => table.read(slot),
    headOf: (slot) => ({ rank: table.priorityRankOf(slot), dueAtMs: table.dueAtMsOf(slot) }),
    keyOf: (slot) => indexKeyOf(table, 'due', slot),
  };
}
