import { IpAddress, parseIpAddress } from './ip-address';

/** An address range in CIDR notation (`10.0.0.0/8`, `fc00::/7`); a bare address is a /32 or /128. */
export interface CidrRange {
  readonly text: string;
  readonly network: IpAddress;
  readonly prefixLength: number;
}

/** Parses `address/prefix` or a bare address. Throws on malformed input: it is operator config. */
export function parseCidrRange(text: string): CidrRange {
  const [addressText, prefixText, extra] = text.trim().split('/');
  const network = parseIpAddress(addressText);
  const maximumPrefix = network?.family === 4 ? 32 : 128;
  const prefixLength = prefixText === undefined ? maximumPrefix : Number(prefixText);
  if (
    network === undefined ||
    extra !== undefined ||
    !Number.isInteger(prefixLength) ||
    prefixLength < 0 ||
    prefixLength > maximumPrefix ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  ) {
    throw new Error(`invalid CIDR range: ${JSON.stringify(text)}`);
  }
  return { text: text.trim(), network, prefixLength };
}

/** True when `address` lies in `range` (families must match; embedded IPv4 is handled elsewhere). */
export function isAddressInRange(address: IpAddress, range: CidrRange): boolean {
  if (address.family !== range.network.family) return false;
  const wholeBytes = Math.floor(range.prefixLength / 8);
  for (let index = 0; index < wholeBytes; index += 1) {
    if (address.bytes[index] !== range.network.bytes[index]) return false;
  }
  const remainingBits = range.prefixLength % 8;
  if (remainingBits === 0) return true;
  const mask = (0xff << (8 - remainingBits)) & 0xff;
  return (address.bytes[wholeBytes] & mask) === (range.network.bytes[wholeBytes] & mask);
}
