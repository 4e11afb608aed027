import type { Clock } from './clock';
import { parseFrontierUrl } from './frontier-url';
import type { FrontierMutator } from './frontier-mutator';
import type { AdmissionOutcome, AdmissionRequest, UrlAdmission } from './url-admission';
import type { RejectedSeed, RejectReason, SeedItem } from './wire-types';

export interface SeedsOutcome {
  accepted_count: number;
  rejected_count: number;
  rejected_list: RejectedSeed[];
}

/** Admission outcomes that refuse a seed, and the reason the operator is told. */
const REJECTIONS: Partial<Record<AdmissionOutcome, RejectReason>> = {
  duplicate_url: 'duplicate_url',
  robots_disallowed: 'robots_disallowed',
  domain_excluded: 'domain_excluded',
};

/**
 * POST /v1/seeds: normalizes and hashes each seed (CONTRACT.md §十) and admits it. A seed whose
 * domain has no rule is accepted and waits as a domain candidate; each refused seed is listed with
 * its reason, as sent.
 */
export interface SeedIntakeDependencies {
  mutator: FrontierMutator;
  clock: Clock;
  admission: UrlAdmission;
}

export class SeedIntake {
  constructor(private readonly dependencies: SeedIntakeDependencies) {}

  async submit(seedList: readonly SeedItem[]): Promise<SeedsOutcome> {
    // Indexed by position so the rejected list keeps the order the seeds were sent in.
    const rejections: Array<RejectReason | undefined> = new Array(seedList.length);
    const admitted: Array<{ position: number; request: AdmissionRequest }> = [];
    seedList.forEach((seed, position) => {
      const target = parseFrontierUrl(seed.url);
      if (typeof target === 'string') {
        rejections[position] = target;
        return;
      }
      admitted.push({
        position,
        request: {
          target,
          seedPriorityRank: seed.priority_rank ?? null,
          priorityRankOffset: 0,
          isSeed: true,
        },
      });
    });
    const { mutator, admission, clock } = this.dependencies;
    const outcomes = await mutator.run((batch) =>
      admission.stage(
        batch,
        admitted.map(({ request }) => request),
        clock.nowMs(),
      ),
    );
    outcomes.forEach((outcome, index) => {
      rejections[admitted[index].position] = REJECTIONS[outcome];
    });
    const rejected: RejectedSeed[] = [];
    rejections.forEach((reason, position) => {
      if (reason !== undefined)
        rejected.push({ url: seedList[position].url, reject_reason: reason });
    });
    return {
      accepted_count: seedList.length - rejected.length,
      rejected_count: rejected.length,
      rejected_list: rejected,
    };
  }
}
