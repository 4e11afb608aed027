import { existsSync, readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Where Linux lists a process's threads (one directory per thread id). */
const OWN_THREADS = '/proc/self/task';

/** Threads besides the main one that serve requests (an HTTP thread): never deprioritized. */
const foregroundThreadIds = new Set<number>();

/** Keeps `threadId` (a Linux thread id of this process) at its niceness from now on. */
export function markForegroundThread(threadId: number): void {
  foregroundThreadIds.add(threadId);
}

/**
 * Gives every thread of this process but the main one and those marked foreground (an HTTP
 * thread) the niceness `niceness` (when it has less), and answers how many it changed. On Linux
 * a thread id is a valid target of setpriority(2), and raising one's own niceness needs no
 * privilege. Elsewhere (no /proc) it changes nothing.
 *
 * Why: a service whose event loop bounds its throughput shares the cores with its own helper
 * threads — libuv's pool (LMDB's writer, file syncs), V8's GC helpers, worker threads. On the
 * scheduler at 1M URLs and 16 workers, its main thread was sampled runnable but waiting for a core
 * 7–16 % of the time. With those threads at a lower priority the event loop takes a core first and
 * their work fills the time it leaves (docs/frontier-performance.md, twenty-seventh session).
 */
export function deprioritizeBackgroundThreads(niceness: number): number {
  if (!existsSync(OWN_THREADS)) return 0;
  let changedCount = 0;
  for (const name of readdirSync(OWN_THREADS)) {
    const threadId = Number(name);
    if (threadId === process.pid || foregroundThreadIds.has(threadId)) continue;
    try {
      if (getPriority(threadId) >= niceness) continue;
      setPriority(threadId, niceness);
      changedCount += 1;
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return changedCount;
}

/**
 * Keeps the background threads at `niceness`, now and every `intervalMs` (threads start lazily:
 * libuv's pool on its first use, worker threads later). Returns the function that stops it.
 */
export function keepBackgroundThreadsDeprioritized(
  niceness: number,
  intervalMs = 1000,
): () => void {
  deprioritizeBackgroundThreads(niceness);
  const timer = setInterval(() => deprioritizeBackgroundThreads(niceness), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
