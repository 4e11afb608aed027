import { BackoffPolicies } from '../retry/backoff-policies';
import { TikvBackend } from '../tikv-backend';
import { TikvBackendOptions } from '../tikv-backend-options';
import { TikvTestDouble, TikvTestDoubleOptions, startTikvTestDouble } from './tikv-test-double';

/** Millisecond-scale backoffs so retry paths run in test time; budgets still apply. */
export const FAST_BACKOFF: BackoffPolicies = {
  regionMiss: { baseMs: 1, capMs: 10 },
  regionScheduling: { baseMs: 1, capMs: 10 },
  staleCommand: { baseMs: 1, capMs: 10 },
  serverBusy: { baseMs: 2, capMs: 20 },
  diskFull: { baseMs: 2, capMs: 20 },
  tikvRpc: { baseMs: 2, capMs: 20 },
  pdRpc: { baseMs: 2, capMs: 20 },
};

export interface DoubleWithBackend {
  double: TikvTestDouble;
  backend: TikvBackend;
  stop(): Promise<void>;
}

/** A fresh double and a backend connected to it; `stop` closes both. */
export async function startDoubleWithBackend(
  doubleOptions: TikvTestDoubleOptions = {},
  backendOptions: Partial<TikvBackendOptions> = {},
): Promise<DoubleWithBackend> {
  const double = await startTikvTestDouble(doubleOptions);
  let backend: TikvBackend;
  try {
    backend = await TikvBackend.connect({
      pdEndpoints: double.pdEndpoints,
      retryBudgetMs: 5_000,
      requestTimeoutMs: 2_000,
      backoff: FAST_BACKOFF,
      ...backendOptions,
    });
  } catch (error) {
    await double.stop();
    throw error;
  }
  return {
    double,
    backend,
    async stop() {
      await backend.close();
      await double.stop();
    },
  };
}

export const key = (text: string): Buffer => Buffer.from(text);
