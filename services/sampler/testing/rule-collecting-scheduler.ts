import express from 'express';
import {
  createSchedulerRouter,
  SchedulerClient,
  schedulerOperationIds,
  type components,
  type SchedulerHandlers,
} from '../../../generated/scheduler';
import { fakeRouterOptions, notImplementedHandlers } from '../../common/testing/fake-peer';
import { listenOnLoopback } from '../../common/testing/listen-on-loopback';
import type { SubmitRules } from '../rules/rule-poster';
import type { DomainRuleWire } from '../storage/sampler-documents';

const TOKEN = 'rule-collecting-scheduler-token-0123';

export interface RuleCollectingScheduler {
  readonly url: string;
  /** Its service token (for a sampler's --scheduler-token). */
  readonly token: string;
  /** Every rule POST /v1/rules received, in order (validated by the generated router). */
  readonly rules: DomainRuleWire[];
  /** POST /v1/rules through the generated client over HTTP, as the sampler's poster sends it. */
  readonly submitRules: SubmitRules;
  close(): Promise<void>;
}

/**
 * A scheduler that only takes rules: the generated router (token check, request validation
 * against the contract, v2 fields included) in front of a list. It has no domain candidates;
 * every other operation answers 501.
 */
export async function startRuleCollectingScheduler(): Promise<RuleCollectingScheduler> {
  const rules: DomainRuleWire[] = [];
  const handlers: SchedulerHandlers = {
    ...notImplementedHandlers<SchedulerHandlers>(schedulerOperationIds),
    // No candidates: the sampler's domains are queued by the test.
    listDomainCandidates: async () => ({ domain_list: [] }),
    submitRules: async ({ body }) => {
      rules.push(...(body.rule_list as DomainRuleWire[]));
      return { accepted_count: body.rule_list.length, duplicate_count: 0, outdated_count: 0 };
    },
  };
  const app = express();
  app.use(createSchedulerRouter(handlers, fakeRouterOptions('scheduler', TOKEN)));
  const listening = await listenOnLoopback(app);
  const client = new SchedulerClient({
    baseUrl: listening.url,
    token: TOKEN,
    maximumAttemptCount: 1,
  });
  return {
    url: listening.url,
    token: TOKEN,
    rules,
    submitRules: (ruleList, signal) =>
      client.submitRules(
        // The sampler's flat rule shape; the generated type is the union of the verdict variants.
        { rule_list: ruleList as components['schemas']['DomainRule'][] },
        { signal },
      ),
    close: listening.close,
  };
}
