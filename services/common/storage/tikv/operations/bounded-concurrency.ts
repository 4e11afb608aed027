/**
 * Runs `tasks` with at most `limit` in flight and rejects with the first failure. A large batch may
 * span many regions; unbounded fan-out would open hundreds of concurrent streams to one store.
 */
export async function runWithConcurrency(
  tasks: ReadonlyArray<() => Promise<void>>,
  limit: number,
): Promise<void> {
  if (tasks.length === 1) return tasks[0]();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next];
      next += 1;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
