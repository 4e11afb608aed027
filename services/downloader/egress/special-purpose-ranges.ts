import { CidrRange, isAddressInRange, parseCidrRange } from './cidr-range';
import { embeddedIpv4Address, IpAddress } from './ip-address';

/**
 * Why an address is not an ordinary public destination. Taken from the IANA IPv4 / IPv6
 * Special-Purpose Address Registries plus the multicast and reserved blocks; values are
 * lowercase snake_case so they can surface in logs and error bodies as they are.
 */
export type AddressCategory =
  | 'unspecified'
  | 'this_network'
  | 'loopback'
  | 'private'
  | 'carrier_grade_nat'
  | 'link_local'
  | 'unique_local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

interface SpecialPurposeRange {
  readonly range: CidrRange;
  readonly category: AddressCategory;
}

// First match wins, so narrower blocks come before the wider blocks that contain them.
const SPECIAL_PURPOSE_RANGES: readonly SpecialPurposeRange[] = (
  [
    ['0.0.0.0/32', 'unspecified'],
    ['0.0.0.0/8', 'this_network'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'carrier_grade_nat'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link_local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
    ['192.0.2.0/24', 'documentation'],
    ['192.88.99.0/24', 'reserved'], // retired 6to4 relay anycast
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'benchmarking'],
    ['198.51.100.0/24', 'documentation'],
    ['203.0.113.0/24', 'documentation'],
    ['224.0.0.0/4', 'multicast'],
    ['255.255.255.255/32', 'broadcast'],
    ['240.0.0.0/4', 'reserved'],
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['100::/64', 'reserved'], // discard-only
    ['2001:db8::/32', 'documentation'],
    ['3fff::/20', 'documentation'],
    ['2001:2::/48', 'benchmarking'],
    ['2001::/23', 'reserved'], // IETF protocol assignments: Teredo, ORCHID, …
    ['fc00::/7', 'unique_local'],
    ['fe80::/10', 'link_local'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([text, category]) => ({ range: parseCidrRange(text), category }));

// Only 2000::/3 is allocated as global unicast; everything else in IPv6 is special by default.
const IPV6_GLOBAL_UNICAST = parseCidrRange('2000::/3');

/**
 * The special-purpose category of an address, or undefined for an ordinary public (global
 * unicast) address. IPv6 forms that embed an IPv4 address are judged by the embedded address.
 */
export function specialPurposeCategory(address: IpAddress): AddressCategory | undefined {
  const embedded = embeddedIpv4Address(address);
  if (embedded !== undefined) return specialPurposeCategory(embedded);
  const match = SPECIAL_PURPOSE_RANGES.find(({ range }) => isAddressInRange(address, range));
  if (match !== undefined) return match.category;
  if (address.family === 6 && !isAddressInRange(address, IPV6_GLOBAL_UNICAST)) return 'reserved';
  return undefined;
}
