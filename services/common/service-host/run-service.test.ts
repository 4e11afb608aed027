import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  runService,
  type ServedContract,
  type ServiceAssembly,
  type ServiceDefinition,
} from './run-service';

describe('runService', () => {
  let dataDirectory: string;
  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'run-service-'));
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it('refuses an HTTP thread for a service with its own authenticator, and stops what it assembled', async () => {
    const stopped: string[] = [];
    const definition: ServiceDefinition = {
      serviceName: 'sampler',
      apiDocument: { info: { title: 'Sampler API' } },
      settingDefinitions: {},
      // The thread admits the service token alone: consumer tokens would be refused there.
      createAuthenticator: () => async () => null,
      assemble: async () => ({
        httpEdge: {
          surfaceModule: join(__dirname, 'fixtures', 'exiting-edge-surface'),
          invokers: {},
        },
        stop: async () => {
          stopped.push('stopped');
        },
      }),
    };
    // The refusal comes before anything listens: no host or port is needed.
    const argv = ['node', 'sampler', '--data-dir', dataDirectory];
    await expect(
      runService(definition, argv, {
        SAMPLER_TOKEN: 'run-service-test-token-0123',
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow('sampler: an HTTP thread cannot use its own authenticator');
    expect(stopped).toEqual(['stopped']);
  });

  /** A scheduler-named service assembled as `assembly`, whose stop is recorded in `events`. */
  function recordingScheduler(
    assembly: ServedContract & Partial<ServiceAssembly>,
    events: string[],
  ) {
    const definition: ServiceDefinition = {
      serviceName: 'scheduler',
      apiDocument: { info: { title: 'Scheduler API' } },
      settingDefinitions: {},
      assemble: async () => ({
        start: async () => {
          events.push('started');
        },
        ...assembly,
        stop: async () => {
          events.push('stopped');
        },
      }),
    };
    return (port: number) =>
      runService(
        definition,
        ['node', 'scheduler', '--data-dir', dataDirectory, '--port', String(port)],
        { SCHEDULER_TOKEN: 'run-service-test-token-0123', LOG_LEVEL: 'silent' },
      );
  }

  const eventLoopContract: ServedContract = {
    contractRouter: (_request, _response, next) => next(),
  };

  describe('when its port is taken', () => {
    let takenPort: Server;
    beforeEach(async () => {
      takenPort = createServer();
      await new Promise<void>((resolve) => takenPort.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      await new Promise<void>((resolve) => takenPort.close(() => resolve()));
    });

    it.each<[string, ServedContract]>([
      ['on the event loop', eventLoopContract],
      [
        'on an HTTP thread',
        {
          httpEdge: {
            surfaceModule: join(__dirname, 'fixtures', 'exiting-edge-surface'),
            invokers: {},
          },
        },
      ],
    ])('fails %s and stops what it assembled, before starting it', async (_, served) => {
      const events: string[] = [];
      const { port } = takenPort.address() as AddressInfo;
      await expect(recordingScheduler(served, events)(port)).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use`,
      );
      expect(events).toEqual(['stopped']);
    });
  });

  it('closes what listens and stops the assembly when its start fails', async () => {
    const events: string[] = [];
    const start = async () => {
      throw new Error('the background work could not start');
    };
    await expect(recordingScheduler({ ...eventLoopContract, start }, events)(0)).rejects.toThrow(
      'the background work could not start',
    );
    expect(events).toEqual(['stopped']);
  });
});
