import { isIPv4, isIPv6 } from 'node:net';

/**
 * An IP address as raw bytes (4 or 16), so range checks are plain byte comparisons and every textual
 * spelling of one address (`::1`, `0:0::1`, `::0.0.0.1`…) compares equal.
 */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

function parseIpv4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

/** Expands an IPv6 literal already validated by `isIPv6` (zone index removed) into 16 bytes. */
function parseIpv6Bytes(text: string): Uint8Array {
  let hexText = text;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    // A trailing dotted quad (`::ffff:10.0.0.1`) stands for the last two 16-bit groups.
    const quad = parseIpv4Bytes(tail);
    const high = ((quad[0] << 8) | quad[1]).toString(16);
    const low = ((quad[2] << 8) | quad[3]).toString(16);
    hexText = `${text.slice(0, lastColon + 1)}${high}:${low}`;
  }
  const [headText, tailText] = hexText.split('::');
  const head = headText === '' ? [] : headText.split(':');
  let groups = head;
  if (tailText !== undefined) {
    const rest = tailText === '' ? [] : tailText.split(':');
    groups = [...head, ...new Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  }
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[2 * index] = value >> 8;
    bytes[2 * index + 1] = value & 0xff;
  });
  return bytes;
}

/** `[::1]` → `::1`: URL host syntax to the bare literal sockets and DNS expect. */
export function withoutBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Parses an IPv4 or IPv6 literal (brackets and an IPv6 zone index are accepted and ignored).
 * Answers undefined for anything else, including host names.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  const literal = withoutBrackets(text);
  if (isIPv4(literal)) return { family: 4, bytes: parseIpv4Bytes(literal) };
  if (isIPv6(literal)) return { family: 6, bytes: parseIpv6Bytes(literal.split('%')[0]) };
  return undefined;
}

function startsWithBytes(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const NAT64_WELL_KNOWN_PREFIX = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const SIX_TO_FOUR_PREFIX = [0x20, 0x02];

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms that reach an IPv4
 * host: IPv4-mapped (::ffff:0:0/96, what a dual-stack socket uses), NAT64 well-known prefix
 * (64:ff9b::/96) and 6to4 (2002::/16). Checking the embedded address stops `::ffff:127.0.0.1`
 * or `64:ff9b::a00:1` from slipping past an IPv4 rule.
 */
export function embeddedIpv4Address(address: IpAddress): IpAddress | undefined {
  if (address.family !== 6) return undefined;
  const { bytes } = address;
  if (
    startsWithBytes(bytes, IPV4_MAPPED_PREFIX) ||
    startsWithBytes(bytes, NAT64_WELL_KNOWN_PREFIX)
  ) {
    return { family: 4, bytes: bytes.slice(12, 16) };
  }
  if (startsWithBytes(bytes, SIX_TO_FOUR_PREFIX)) {
    return { family: 4, bytes: bytes.slice(2, 6) };
  }
  return undefined;
}
