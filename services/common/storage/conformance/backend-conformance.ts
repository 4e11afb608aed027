import { useConformanceBackend, type BackendFactory } from './conformance-context';
import { describeKeyspaceConformance } from './keyspace-conformance';
import { describeOrderedKeyValueConformance } from './ordered-key-value-conformance';

export type { BackendFactory } from './conformance-context';

/**
 * The backend-agnostic conformance suite: the OrderedKeyValueBackend contract (ordering, batches,
 * TTL, compare-and-swap) and the service keyspace on top of it. Call it from a `*.test.ts` file
 * once per backend:
 *
 *   describeBackendConformance('lmdb', async () => { ...; return { backend, cleanup } });
 *
 * After the suite a line `storage conformance: backend=<name> ran label="<label>" tests=<n>` is
 * logged, so CI can grep which backends were exercised.
 */
export function describeBackendConformance(label: string, factory: BackendFactory): void {
  describe(`storage conformance (${label})`, () => {
    const context = useConformanceBackend(label, factory);
    describeOrderedKeyValueConformance(context);
    describeKeyspaceConformance(context);
  });
}
