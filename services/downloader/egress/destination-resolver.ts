import { lookup as dnsLookup } from 'node:dns/promises';
import { DestinationPolicy } from './destination-policy';
import { EgressError } from './egress-error';
import { parseIpAddress, withoutBrackets } from './ip-address';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all of its addresses (injectable so tests never touch real DNS). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemHostLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export interface DestinationResolverOptions {
  readonly policy: DestinationPolicy;
  readonly lookup?: HostLookup;
  /** getaddrinfo cannot be cancelled; past this we stop waiting and call it a DNS failure. */
  readonly lookupTimeoutMs?: number;
}

/**
 * The safe lookup every outbound connection uses: resolve, check every answer against the policy,
 * and hand back the one address the caller must connect to. A host with any refused answer is
 * refused as a whole — a name that resolves to both a public and a private address is what DNS
 * rebinding looks like, and picking the "good" answer would only hide it.
 */
export class DestinationResolver {
  readonly policy: DestinationPolicy;
  private readonly lookup: HostLookup;
  private readonly lookupTimeoutMs: number;

  constructor(options: DestinationResolverOptions) {
    this.policy = options.policy;
    this.lookup = options.lookup ?? systemHostLookup;
    this.lookupTimeoutMs = options.lookupTimeoutMs ?? 10_000;
  }

  /** Throws EgressError `destination_refused` or `dns_resolution_failed`. */
  async resolve(hostname: string): Promise<ResolvedAddress> {
    const bareHost = withoutBrackets(hostname);
    const literal = parseIpAddress(bareHost);
    const candidates: readonly ResolvedAddress[] =
      literal !== undefined
        ? [{ address: bareHost, family: literal.family }]
        : await this.lookUp(bareHost);
    for (const candidate of candidates) {
      const verdict = this.policy.checkAddress(candidate.address, bareHost);
      if (!verdict.isAllowed) {
        throw new EgressError(
          'destination_refused',
          `destination ${hostname} (${candidate.address}) refused: ${verdict.category} address`,
          verdict.category,
        );
      }
    }
    return candidates[0];
  }

  private async lookUp(hostname: string): Promise<readonly ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(new EgressError('dns_resolution_failed', `DNS lookup of ${hostname} timed out`)),
        this.lookupTimeoutMs,
      );
    });
    try {
      const addresses = await Promise.race([this.lookup(hostname), timeout]);
      if (addresses.length === 0) throw new Error('no addresses');
      return addresses;
    } catch (error) {
      if (error instanceof EgressError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new EgressError('dns_resolution_failed', `DNS lookup of ${hostname} failed: ${detail}`);
    } finally {
      clearTimeout(timer);
    }
  }
}
