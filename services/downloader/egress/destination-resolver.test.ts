import { DestinationPolicy } from './destination-policy';
import { DestinationResolver, HostLookup } from './destination-resolver';
import { egressFailureOf, refuseNameLookup } from './egress-test-support';

// Injected lookups only: no DNS query leaves the process.

function fixedLookup(answers: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const addresses = answers[hostname];
    if (addresses === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('DestinationResolver', () => {
  const policy = new DestinationPolicy({ allowedRanges: ['127.0.0.2'] });

  test('checks IP literals without any lookup', async () => {
    const resolver = new DestinationResolver({ policy, lookup: refuseNameLookup });
    await expect(resolver.resolve('127.0.0.2')).resolves.toEqual({
      address: '127.0.0.2',
      family: 4,
    });
    const refused = await egressFailureOf(resolver.resolve('127.0.0.9'));
    expect(refused.kind).toBe('destination_refused');
    expect(refused.addressCategory).toBe('loopback');
    expect((await egressFailureOf(resolver.resolve('[::1]'))).kind).toBe('destination_refused');
  });

  test('returns the checked address of a public name', async () => {
    const resolver = new DestinationResolver({
      policy,
      lookup: fixedLookup({ 'public.test': ['93.184.215.14'] }),
    });
    await expect(resolver.resolve('public.test')).resolves.toEqual({
      address: '93.184.215.14',
      family: 4,
    });
  });

  test('refuses a name with any refused answer (rebinding-shaped answers)', async () => {
    const resolver = new DestinationResolver({
      policy,
      lookup: fixedLookup({
        'mixed.test': ['93.184.215.14', '169.254.169.254'],
        'inner.test': ['10.0.0.5'],
      }),
    });
    const mixed = await egressFailureOf(resolver.resolve('mixed.test'));
    expect(mixed.kind).toBe('destination_refused');
    expect(mixed.addressCategory).toBe('link_local');
    expect((await egressFailureOf(resolver.resolve('inner.test'))).addressCategory).toBe('private');
  });

  test('reports DNS failures, empty answers and slow lookups as dns_resolution_failed', async () => {
    const never: HostLookup = () => new Promise(() => undefined);
    const empty: HostLookup = async () => [];
    expect(
      (
        await egressFailureOf(
          new DestinationResolver({ policy, lookup: refuseNameLookup }).resolve('x.test'),
        )
      ).kind,
    ).toBe('dns_resolution_failed');
    expect(
      (await egressFailureOf(new DestinationResolver({ policy, lookup: empty }).resolve('x.test')))
        .kind,
    ).toBe('dns_resolution_failed');
    const slow = new DestinationResolver({ policy, lookup: never, lookupTimeoutMs: 50 });
    expect((await egressFailureOf(slow.resolve('x.test'))).message).toContain('timed out');
  });
});
