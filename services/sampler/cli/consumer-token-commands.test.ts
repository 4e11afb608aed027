import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  startTestSampler,
  TEST_SAMPLER_TOKEN,
  type TestSampler,
} from '../testing/sampler-test-harness';

// The CLI as an operator runs it: a real process (npm's tsx entry) against a running sampler.

const run = promisify(execFile);
const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'sampler-consumer-tokens.ts');
let sampler: TestSampler;

async function cli(...argumentList: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, ...argumentList], {
      env: { ...process.env, SAMPLER_URL: sampler.url, SAMPLER_TOKEN: TEST_SAMPLER_TOKEN },
    });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { stdout: failed.stdout, code: failed.code };
  }
}

beforeAll(async () => {
  sampler = await startTestSampler();
});
afterAll(async () => {
  await sampler?.stop();
});

it('issues, lists and revokes a consumer token over HTTP', async () => {
  const issued = await cli('issue', 'whois-checker');
  expect(issued.code).toBe(0);
  const token = /consumer_token: (\S+)/.exec(issued.stdout)?.[1] as string;
  expect(token).toMatch(/^ct\.whois-checker\./);
  const consumer = sampler.consumerClient(token);
  await expect(consumer.listExportedDomains({})).resolves.toEqual({ domain_list: [] });

  const listed = await cli('list');
  expect(listed.stdout).toMatch(/whois-checker\s+\d{4}-\d\d-\d\dT\S+Z\s+— \(live\)/);
  expect(listed.stdout).not.toContain(token);

  const again = await cli('issue', 'whois-checker');
  expect(again).toMatchObject({ code: 1 });
  expect(again.stdout).toContain('409 consumer_already_exists');

  expect((await cli('revoke', 'whois-checker')).code).toBe(0);
  await expect(consumer.listExportedDomains({})).rejects.toMatchObject({ status: 401 });
  expect((await cli('revoke', 'nobody')).stdout).toContain('404 consumer_not_found');
}, 60_000);
