import type { OrderedKeyValueBackend } from '../common/storage/ordered-key-value-backend';
import { ruleFor } from './testing/contract-fixtures';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';

/** Lets writes through until `isFailing` is set, then refuses every putMany. */
function failingBackend(inner: OrderedKeyValueBackend, state: { isFailing: boolean }) {
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'putMany' && state.isFailing) {
        return () => Promise.reject(new Error('disk full'));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as Function).bind(target) : value;
    },
  });
}

describe('a scheduler whose storage refuses a write', () => {
  const state = { isFailing: false };
  let scheduler: TestScheduler;

  beforeAll(async () => {
    scheduler = await startTestScheduler({
      wrapBackend: (backend) => failingBackend(backend, state),
    });
  });
  afterAll(() => scheduler.stop());

  it('answers 503 service_unavailable, refuses later writes, and reports itself unhealthy', async () => {
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    expect((await fetch(`${scheduler.url}/healthz`)).status).toBe(200);

    state.isFailing = true;
    await expect(
      client.submitSeeds({ seed_list: [{ url: 'https://news.example/a' }] }),
    ).rejects.toMatchObject({ status: 503, errorCode: 'service_unavailable' });
    state.isFailing = false;
    // Memory may be ahead of storage now: nothing is written until a restart rebuilds it.
    await expect(client.leaseTasks({ worker_id: 'w1' })).rejects.toMatchObject({
      status: 503,
      errorCode: 'service_unavailable',
    });
    const health = await fetch(`${scheduler.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ is_ready: false });
  });
});
