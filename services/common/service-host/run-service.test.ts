import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runService, type ServiceDefinition } from './run-service';

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
});
