import { seededRandom } from '../../common/testing/seeded-random';
import { MinHeap } from './min-heap';

interface Entry {
  atMs: number;
  sequence: number;
}

const isBefore = (left: Entry, right: Entry) =>
  left.atMs === right.atMs ? left.sequence < right.sequence : left.atMs < right.atMs;
const byOrder = (left: Entry, right: Entry) => (isBefore(left, right) ? -1 : 1);

describe('MinHeap', () => {
  it('pops in order through interleaved pushes, pops and retains, as a sorted list does', () => {
    const random = seededRandom(20261205);
    const heap = new MinHeap<Entry>(isBefore);
    let model: Entry[] = [];
    let sequence = 0;
    for (let step = 0; step < 5000; step += 1) {
      const roll = random();
      if (roll < 0.55) {
        // Few distinct times, so ties are decided by the sequence.
        const entry = { atMs: Math.floor(random() * 50), sequence: (sequence += 1) };
        heap.push(entry);
        model.push(entry);
      } else if (roll < 0.97) {
        model.sort(byOrder);
        expect(heap.peek()).toBe(model[0]);
        expect(heap.pop()).toBe(model.shift());
      } else {
        const keep = (entry: Entry) => entry.sequence % 3 !== 0;
        heap.retain(keep);
        model = model.filter(keep);
      }
      expect(heap.size).toBe(model.length);
    }
    model.sort(byOrder);
    const drained: Entry[] = [];
    for (let entry = heap.pop(); entry !== undefined; entry = heap.pop()) drained.push(entry);
    expect(drained).toEqual(model);
  });
});
