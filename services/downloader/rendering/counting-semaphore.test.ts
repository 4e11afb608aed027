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
  });
});
