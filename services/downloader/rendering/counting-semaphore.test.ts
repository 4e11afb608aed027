import { CountingSemaphore } from './counting-semaphore';

describe('CountingSemaphore', () => {
  test('admits up to its permits, then serves waiters first-in first-out', async () => {
    const semaphore = new CountingSemaphore(2);
    await semaphore.acquire();
    await semaphore.acquire();
    expect(semaphore.availableCount).toBe(0);
    const order: string[] = [];
    const first = semaphore.acquire().then(() => order.push('first'));
    const second = semaphore.acquire().then(() => order.push('second'));
    expect(semaphore.waitingCount).toBe(2);
    semaphore.release();
    semaphore.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(semaphore.availableCount).toBe(0);
    semaphore.release();
    semaphore.release();
    expect(semaphore.availableCount).toBe(2);
  });

  test('rejects a non-positive size', () => {
    expect(() => new CountingSemaphore(0)).toThrow(RangeError);
    expect(() => new CountingSemaphore(2).resize(0)).toThrow(RangeError);
  });

  test('a raised permit count admits waiters at once, in order', async () => {
    const semaphore = new CountingSemaphore(1);
    await semaphore.acquire();
    const order: string[] = [];
    const first = semaphore.acquire().then(() => order.push('first'));
    const second = semaphore.acquire().then(() => order.push('second'));
    const third = semaphore.acquire().then(() => order.push('third'));
    semaphore.resize(3);
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(semaphore.waitingCount).toBe(1);
    semaphore.release();
    await third;
    expect(order).toEqual(['first', 'second', 'third']);
  });

  test('a lowered permit count takes effect as holders release', async () => {
    const semaphore = new CountingSemaphore(3);
    await Promise.all([semaphore.acquire(), semaphore.acquire(), semaphore.acquire()]);
    semaphore.resize(1);
    expect(semaphore.availableCount).toBe(0);
    let isAdmitted = false;
    const waiter = semaphore.acquire().then(() => (isAdmitted = true));
    semaphore.release();
    semaphore.release();
    await Promise.resolve();
    expect(isAdmitted).toBe(false); // still one holder: the single permit is taken
    semaphore.release();
    await waiter;
    expect(semaphore.holderCount).toBe(1);
  });
});
