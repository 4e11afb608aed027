import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notFound } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** GET /v1/operator/url-tasks/{url_hash} — Where one URL stands in the frontier. */
export function createGetUrlTaskHandler(
  context: SchedulerContext,
): SchedulerHandlers['getUrlTask'] {
  return async ({ path }) => {
    const found = await context.frontier.findUrlTask(path.url_hash);
    if (found === undefined) {
      throw notFound('url_task_not_found', `no URL with url_hash ${path.url_hash} in the frontier`);
    }
    const { task, leaseId } = found;
    return {
      url: task.url,
      url_hash: task.url_hash,
      domain: task.domain,
      url_state: task.url_state,
      priority_rank: task.priority_rank,
      due_at: task.due_at,
      lease_id: leaseId,
      attempt_count: task.attempt_count,
      fail_reason: task.fail_reason,
      // Set only when a URL is parked; leaving `failed` (a success, a new seed) clears it.
      park_reason: task.park_reason,
      object_id: task.object_id,
      etag: task.etag,
      last_modified_at: task.last_modified_at,
      fetched_at: task.fetched_at,
    };
  };
}
