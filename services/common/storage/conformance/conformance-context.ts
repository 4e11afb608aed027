import { randomBytes } from 'node:crypto';
import type { OrderedKeyValueBackend } from '../ordered-key-value-backend';

/**
 * Opens the backend under test. `cleanup` must close the backend and release whatever the factory
 * created (temp directories, a test double); the suite calls it once, after its last test.
 */
export type BackendFactory = () => Promise<{
  backend: OrderedKeyValueBackend;
  cleanup: () => Promise<void>;
}>;

/**
 * What the conformance tests share: one backend per suite, and a fresh namespace per test. Tests
 * never assume an empty store — every key they touch starts with their own namespace — so the suite
 * also works against a long-lived TiKV double or cluster.
 */
export interface ConformanceContext {
  backend(): OrderedKeyValueBackend;
  /** A string unique to this suite run and call, for building keys no other test touches. */
  namespace(): string;
}

/**
 * Registers the suite's lifecycle hooks and returns the shared context. After the suite it prints
 * one grep-able line, e.g. `storage conformance: backend=lmdb ran label="lmdb" tests=31`, so CI can
 * tell which backends the conformance suite actually exercised.
 */
export function useConformanceBackend(label: string, factory: BackendFactory): ConformanceContext {
  const runId = randomBytes(4).toString('hex');
  let opened: Awaited<ReturnType<BackendFactory>> | undefined;
  let namespaceCount = 0;
  let testCount = 0;

  beforeAll(async () => {
    opened = await factory();
  });
  beforeEach(() => {
    testCount += 1;
  });
  afterAll(async () => {
    if (opened !== undefined) {
      // Straight to stdout: jest would wrap a console.log in a block that reads like a failure.
      process.stdout.write(
        `storage conformance: backend=${opened.backend.backendName} ran label=${JSON.stringify(label)} tests=${testCount}\n`,
      );
      await opened.cleanup();
    }
  });

  return {
    backend() {
      if (opened === undefined) {
        throw new Error(`conformance backend "${label}" failed to open`);
      }
      return opened.backend;
    },
    namespace() {
      namespaceCount += 1;
      return `conformance-${runId}-${String(namespaceCount).padStart(3, '0')}`;
    },
  };
}

/** Polls `probe` until it returns true; false if `timeoutMs` passes first. */
export async function eventually(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) {
      return true;
    }
    if (Date.now() >= deadline) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
