import { isAddressInRange, parseCidrRange } from './cidr-range';
import { DestinationPolicy } from './destination-policy';
import { embeddedIpv4Address, parseIpAddress } from './ip-address';

// Only literal addresses: nothing here opens a socket or asks DNS.

describe('parseIpAddress', () => {
  test.each([
    ['127.0.0.1', 4, '7f000001'],
    ['::1', 6, '00000000000000000000000000000001'],
    ['[::1]', 6, '00000000000000000000000000000001'],
    ['0:0:0:0:0:0:0:1', 6, '00000000000000000000000000000001'],
    ['::', 6, '00000000000000000000000000000000'],
    ['2001:db8::8a2e:370:7334', 6, '20010db80000000000008a2e03707334'],
    ['fe80::1%eth0', 6, 'fe800000000000000000000000000001'],
    ['::ffff:10.1.2.3', 6, '00000000000000000000ffff0a010203'],
    ['1::', 6, '00010000000000000000000000000000'],
  ])('%s', (text, family, hex) => {
    const parsed = parseIpAddress(text);
    expect(parsed?.family).toBe(family);
    expect(Buffer.from(parsed?.bytes ?? []).toString('hex')).toBe(hex);
  });

  test.each(['example.com', '1.2.3', '256.1.1.1', ':::', '', '01.2.3.4'])('rejects %s', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });

  test('finds the IPv4 address inside mapped, NAT64 and 6to4 forms', () => {
    const embedded = (text: string) => {
      const address = embeddedIpv4Address(parseIpAddress(text)!);
      return address === undefined ? undefined : Array.from(address.bytes).join('.');
    };
    expect(embedded('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embedded('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embedded('2002:c0a8:0101::1')).toBe('192.168.1.1');
    expect(embedded('2606:4700::1')).toBeUndefined();
    expect(embedded('8.8.8.8')).toBeUndefined();
  });
});

describe('parseCidrRange / isAddressInRange', () => {
  test.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['100.64.0.0/10', '100.127.255.255', true],
    ['100.64.0.0/10', '100.128.0.0', false],
    ['fc00::/7', 'fdff::1', true],
    ['fc00::/7', 'fe00::1', false],
    ['127.0.0.2', '127.0.0.2', true],
    ['127.0.0.2', '127.0.0.3', false],
    ['0.0.0.0/0', '8.8.8.8', true],
    ['::/0', '8.8.8.8', false],
  ])('%s contains %s: %s', (range, address, expected) => {
    expect(isAddressInRange(parseIpAddress(address)!, parseCidrRange(range))).toBe(expected);
  });

  test.each([
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/8/1',
    'example.com/8',
    '::/129',
    '10.0.0.0/x',
  ])('rejects malformed range %s', (range) => {
    expect(() => parseCidrRange(range)).toThrow('invalid CIDR range');
  });
});

describe('DestinationPolicy without an allow-list', () => {
  const policy = new DestinationPolicy();

  test.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this_network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:a9fe:a9fe::1', 'link_local'],
    ['::127.0.0.1', 'reserved'],
  ])('refuses %s as %s', (address, category) => {
    expect(policy.checkAddress(address)).toEqual({ isAllowed: false, category });
  });

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('allows public address %s', (address) => {
    expect(policy.checkAddress(address)).toEqual({ isAllowed: true, basis: 'public_address' });
  });

  test('refuses something that is not an address', () => {
    expect(policy.checkAddress('localhost')).toEqual({
      isAllowed: false,
      category: 'invalid_address',
    });
  });
});

describe('DestinationPolicy with an allow-list', () => {
  const policy = new DestinationPolicy({
    allowedHosts: ['Intranet.Example', '127.0.0.2'],
    allowedRanges: ['127.0.0.3/32', '10.20.0.0/16'],
  });

  test('allows exactly the listed loopback addresses', () => {
    expect(policy.checkAddress('127.0.0.2')).toEqual({ isAllowed: true, basis: 'allowed_range' });
    expect(policy.checkAddress('127.0.0.3')).toEqual({ isAllowed: true, basis: 'allowed_range' });
    expect(policy.checkAddress('127.0.0.4')).toEqual({ isAllowed: false, category: 'loopback' });
    expect(policy.checkAddress('127.0.0.1')).toEqual({ isAllowed: false, category: 'loopback' });
  });

  test('allows a listed range but not its neighbours', () => {
    expect(policy.checkAddress('10.20.255.1').isAllowed).toBe(true);
    expect(policy.checkAddress('10.21.0.1')).toEqual({ isAllowed: false, category: 'private' });
  });

  test('an allow-listed host name allows whatever it resolves to, matched case-insensitively', () => {
    expect(policy.checkAddress('192.168.7.7', 'intranet.example.')).toEqual({
      isAllowed: true,
      basis: 'allowed_host',
    });
    expect(policy.checkAddress('192.168.7.7', 'other.example')).toEqual({
      isAllowed: false,
      category: 'private',
    });
    expect(policy.isHostAllowListed('INTRANET.example')).toBe(true);
  });

  test('rejects a malformed allow-list entry at construction', () => {
    expect(() => new DestinationPolicy({ allowedRanges: ['127.0.0.0/99'] })).toThrow();
  });
});
