import type {
  DomainSampleOutcome,
  DomainSampleRequest,
  DomainSampler,
  UndeterminedReason,
  Verdict,
} from '../sampling/domain-sampler';

/** What a test wants the procedure to conclude for a domain. */
export interface ScriptedOutcome {
  verdict: Verdict;
  undeterminedReason?: UndeterminedReason;
  minIntervalMs?: number;
  robotsTxt?: string | null;
  waitSelector?: string | null;
}

type Script = (domain: string) => ScriptedOutcome | Error;

/**
 * A DomainSampler for the loop's control flow: it answers what the test scripted (or throws the
 * scripted error), records every call, and can hold a domain "in progress" until released — so a
 * test can claim while a sampling runs. It honours the request's abort signal like the real
 * procedure: an aborted sampling throws the signal's reason. It sends no request anywhere.
 */
export class ScriptedDomainSampler implements DomainSampler {
  readonly calls: DomainSampleRequest[] = [];
  readonly #held = new Map<string, { promise: Promise<void>; release: () => void }>();

  constructor(private script: Script) {}

  setScript(script: Script): void {
    this.script = script;
  }

  /** The next samplings of `domain` wait until the returned function is called. */
  hold(domain: string): () => void {
    let release = () => undefined as void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.#held.set(domain, { promise, release });
    return () => {
      this.#held.delete(domain);
      release();
    };
  }

  callsFor(domain: string): number {
    return this.calls.filter((call) => call.domain === domain).length;
  }

  async sample(request: DomainSampleRequest): Promise<DomainSampleOutcome> {
    this.calls.push(request);
    const held = this.#held.get(request.domain);
    if (held !== undefined) {
      await Promise.race([
        held.promise,
        new Promise<void>((_resolve, reject) =>
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
        ),
      ]);
    }
    request.signal?.throwIfAborted();
    const scripted = this.script(request.domain);
    if (scripted instanceof Error) throw scripted;
    return {
      domain: request.domain,
      verdict: scripted.verdict,
      undeterminedReason:
        scripted.verdict === 'unknown'
          ? (scripted.undeterminedReason ?? 'sample_insufficient')
          : null,
      waitSelector: scripted.waitSelector ?? (scripted.verdict === 'csr' ? 'main' : null),
      minIntervalMs: scripted.minIntervalMs ?? 2000,
      robotsTxt:
        scripted.robotsTxt === undefined ? 'User-agent: *\nCrawl-delay: 2\n' : scripted.robotsTxt,
      language: 'en',
      confidenceScore: 0.9,
      renderCount: 2,
      plainFetchCount: 3,
      sampledUrlList: [`http://${request.domain}/`],
      evidenceList: ['scripted'],
      rateLimitedCount: 0,
      pageList: [],
    };
  }
}
