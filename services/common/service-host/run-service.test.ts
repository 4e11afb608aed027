import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { SURFACE_CHANNEL } from './fixtures/answering-edge-surface';
import { runService, type ServiceDefinition } from './run-service';

// createLogger reads the process's LOG_LEVEL, not the environment given to runService.
process.env.LOG_LEVEL = 'silent';

const FIXTURES = join(__dirname, 'fixtures');
const TOKEN = 'run-service-test-token-0123';

/** What the answering surface's threads said, and a way to wait for a word. */
function surfaceChannel() {
  const channel = new BroadcastChannel(SURFACE_CHANNEL);
  const heard: string[] = [];
  channel.onmessage = (event) => heard.push(String(event.data));
  /** Resolves true once `word` was heard, false after `timeoutMs`. */
  const hear = async (word: string, timeoutMs: number): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    while (!heard.includes(word) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return heard.includes(word);
  };
  return { channel, hear };
}

describe('runService', () => {
  let dataDirectory: string;
  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'run-service-'));
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  /** A service's arguments: this test's data directory, an ephemeral loopback port. */
  function argvFor(service: string): string[] {
    return ['node', service, '--data-dir', dataDirectory, '--host', '127.0.0.1', '--port', '0'];
  }

  /** A scheduler-named service whose HTTP thread serves the answering surface. */
  function threadedDefinition(assemble: ServiceDefinition['assemble']): ServiceDefinition {
    return {
      serviceName: 'scheduler',
      apiDocument: { info: { title: 'Scheduler API' } },
      settingDefinitions: {},
      httpThreadSurface: () => join(FIXTURES, 'answering-edge-surface'),
      assemble,
    };
  }

  it('refuses an HTTP thread for a service with its own authenticator, before assembling it', async () => {
    const assembled: string[] = [];
    const definition: ServiceDefinition = {
      serviceName: 'sampler',
      apiDocument: { info: { title: 'Sampler API' } },
      settingDefinitions: {},
      // The thread admits the service token alone: consumer tokens would be refused there.
      createAuthenticator: () => async () => null,
      httpThreadSurface: () => join(FIXTURES, 'answering-edge-surface'),
      assemble: async () => {
        assembled.push('assembled');
        return { httpEdge: { invokers: {} } };
      },
    };
    await expect(
      runService(definition, argvFor('sampler'), { SAMPLER_TOKEN: TOKEN }),
    ).rejects.toThrow('sampler: an HTTP thread cannot use its own authenticator');
    expect(assembled).toEqual([]);
  });

  it('has the HTTP thread load its surface while the service assembles, and listen after', async () => {
    const surface = surfaceChannel();
    const events: string[] = [];
    const definition = threadedDefinition(async () => {
      // Bounded: the thread loads in well under a second. Before the fiftieth session it was
      // started only after the assembly, and this waited out its deadline.
      if (await surface.hear('loaded', 10_000)) events.push('surface loaded');
      events.push('assembled');
      return { httpEdge: { invokers: {} } };
    });
    try {
      const running = await runService(definition, argvFor('scheduler'), {
        SCHEDULER_TOKEN: TOKEN,
      });
      try {
        expect(events).toEqual(['surface loaded', 'assembled']);
        expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      } finally {
        await running.shutdown('test over');
      }
    } finally {
      surface.channel.close();
    }
  });

  it('ends the preparing HTTP thread when the assembly fails, and says why', async () => {
    const surface = surfaceChannel();
    const definition = threadedDefinition(async () => {
      await surface.hear('loaded', 10_000);
      throw new Error('the store could not be opened');
    });
    try {
      await expect(
        runService(definition, argvFor('scheduler'), { SCHEDULER_TOKEN: TOKEN }),
      ).rejects.toThrow('the store could not be opened');
      expect(await surface.hear('loaded', 0)).toBe(true);
      surface.channel.postMessage('ping');
      // A thread left running answers within milliseconds.
      expect(await surface.hear('pong', 1_000)).toBe(false);
    } finally {
      surface.channel.close();
    }
  });

  it('refuses an assembly that does not match where its settings serve HTTP, and stops it', async () => {
    const stopped: string[] = [];
    const definition: ServiceDefinition = {
      serviceName: 'scheduler',
      apiDocument: { info: { title: 'Scheduler API' } },
      settingDefinitions: {},
      assemble: async () => ({
        httpEdge: { invokers: {} },
        stop: async () => {
          stopped.push('stopped');
        },
      }),
    };
    await expect(
      runService(definition, argvFor('scheduler'), { SCHEDULER_TOKEN: TOKEN }),
    ).rejects.toThrow('scheduler: assembled for an HTTP thread although its settings ask for none');
    expect(stopped).toEqual(['stopped']);
  });
});
