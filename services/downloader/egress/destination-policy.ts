import { CidrRange, isAddressInRange, parseCidrRange } from './cidr-range';
import { parseIpAddress, withoutBrackets } from './ip-address';
import { AddressCategory, specialPurposeCategory } from './special-purpose-ranges';

/**
 * Which destinations the downloader may connect to. Public (global unicast) addresses are allowed;
 * every special-purpose address (private, loopback, link-local, CGNAT, unique-local, multicast,
 * reserved, … and IPv6 forms embedding one) is refused unless the operator allow-lists it, either
 * by host name or by address range. Tests and the demo allow exactly the loopback addresses they
 * serve from, nothing wider.
 *
 * The policy judges an already resolved address; resolution lives in DestinationResolver so the
 * checked address is the one connected to (no second lookup an attacker's DNS could answer
 * differently).
 */
export interface DestinationPolicyOptions {
  /** Host names (or IP literals) whose resolved addresses are allowed whatever they are. */
  readonly allowedHosts?: readonly string[];
  /** Address ranges in CIDR notation (a bare address means just that address). */
  readonly allowedRanges?: readonly string[];
}

export type DestinationVerdict =
  | {
      readonly isAllowed: true;
      readonly basis: 'public_address' | 'allowed_host' | 'allowed_range';
    }
  | { readonly isAllowed: false; readonly category: AddressCategory | 'invalid_address' };

/** Lowercase, without IPv6 brackets or a trailing dot: the form host allow-list entries compare in. */
function canonicalHostName(hostname: string): string {
  const unbracketed = withoutBrackets(hostname.toLowerCase());
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

export class DestinationPolicy {
  private readonly allowedHostNames: ReadonlySet<string>;
  private readonly allowedRanges: readonly CidrRange[];

  constructor(options: DestinationPolicyOptions = {}) {
    const hostEntries = options.allowedHosts ?? [];
    // An IP literal in the host list is an address rule: it must match however the URL spells it.
    const literalHosts = hostEntries.filter((entry) => parseIpAddress(entry) !== undefined);
    this.allowedHostNames = new Set(
      hostEntries.filter((entry) => !literalHosts.includes(entry)).map(canonicalHostName),
    );
    this.allowedRanges = [...literalHosts, ...(options.allowedRanges ?? [])].map((entry) =>
      parseCidrRange(canonicalHostName(entry)),
    );
  }

  /** True when the operator allow-listed this host name (so any address it resolves to is fine). */
  isHostAllowListed(hostname: string): boolean {
    return this.allowedHostNames.has(canonicalHostName(hostname));
  }

  /** Judges one resolved address, reached under `hostname` when given. */
  checkAddress(address: string, hostname?: string): DestinationVerdict {
    const parsed = parseIpAddress(address);
    if (parsed === undefined) return { isAllowed: false, category: 'invalid_address' };
    if (hostname !== undefined && this.isHostAllowListed(hostname)) {
      return { isAllowed: true, basis: 'allowed_host' };
    }
    if (this.allowedRanges.some((range) => isAddressInRange(parsed, range))) {
      return { isAllowed: true, basis: 'allowed_range' };
    }
    const category = specialPurposeCategory(parsed);
    return category === undefined
      ? { isAllowed: true, basis: 'public_address' }
      : { isAllowed: false, category };
  }
}
