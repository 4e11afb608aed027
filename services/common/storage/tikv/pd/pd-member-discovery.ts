import { GetMembersResponse, PdMethods } from '../protocol/wire-types';
import { ClientPool } from '../rpc/grpc-client-pool';
import { TypedGrpcClient } from '../rpc/typed-grpc-client';
import { describeServiceError, isServiceError } from '../rpc/grpc-status';
import { TikvConfigurationError, TikvError } from '../tikv-errors';
import { pdAddressFromUrl } from './pd-address';

export interface PdMembership {
  /** 64-bit cluster id as a decimal string (it exceeds 2^53; never a JS number). */
  clusterId: string;
  leaderAddress: string;
  /** Every member's client address, for failover when the leader dies. */
  memberAddresses: string[];
}

/** One unary client per PD member address. */
export type PdConnections = ClientPool<TypedGrpcClient<PdMethods>>;

/** No candidate answered with a usable leader: retryable (election in progress, PD restarting). */
export class PdUnavailableError extends TikvError {}

/**
 * Asks every candidate for the member list (GetMembers needs no cluster id) and agrees on the
 * cluster id and leader, as client-rust's `pd/cluster.rs` does: all answering members must report
 * the same cluster id, then the reported leader is asked again to confirm it serves that cluster.
 */
export async function discoverPdMembership(
  candidates: readonly string[],
  pool: PdConnections,
  timeoutMs: number,
  expectedClusterId?: string,
): Promise<PdMembership> {
  const addresses = [...new Set(candidates)];
  const outcomes = await Promise.allSettled(
    addresses.map((address) => pool.get(address).call('GetMembers', {}, timeoutMs)),
  );

  const failures: string[] = [];
  const answers: GetMembersResponse[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') answers.push(outcome.value);
    else failures.push(`${addresses[index]}: ${describeFailure(outcome.reason)}`);
  });

  const clusterIds = new Set(answers.map((answer) => answer.header?.cluster_id ?? '0'));
  clusterIds.delete('0');
  if (clusterIds.size > 1) {
    throw new TikvConfigurationError(
      `PD endpoints belong to different clusters (cluster ids ${[...clusterIds].join(', ')}): ${addresses.join(', ')}`,
    );
  }
  const [clusterId] = clusterIds;
  if (clusterId && expectedClusterId && clusterId !== expectedClusterId) {
    throw new TikvConfigurationError(
      `PD now reports cluster id ${clusterId}, but this client is connected to cluster ${expectedClusterId}`,
    );
  }

  const usable = answers.find(
    (answer) => !hasHeaderError(answer) && (answer.leader?.client_urls.length ?? 0) > 0,
  );
  if (!clusterId || !usable?.leader) {
    const reasons = failures.length > 0 ? failures.join('; ') : 'no leader elected yet';
    throw new PdUnavailableError(`no PD member reported a leader (${reasons})`);
  }

  const leaderAddress = pdAddressFromUrl(usable.leader.client_urls[0]);
  await confirmLeader(leaderAddress, clusterId, pool, timeoutMs);
  const memberAddresses = usable.members.flatMap((member) =>
    member.client_urls.map(pdAddressFromUrl),
  );
  return { clusterId, leaderAddress, memberAddresses: [...new Set(memberAddresses)] };
}

async function confirmLeader(
  leaderAddress: string,
  clusterId: string,
  pool: PdConnections,
  timeoutMs: number,
): Promise<void> {
  let answer: GetMembersResponse;
  try {
    answer = await pool.get(leaderAddress).call('GetMembers', {}, timeoutMs);
  } catch (error) {
    throw new PdUnavailableError(
      `PD leader ${leaderAddress} did not answer: ${describeFailure(error)}`,
    );
  }
  const reported = answer.header?.cluster_id;
  if (reported !== clusterId) {
    throw new TikvConfigurationError(
      `PD leader ${leaderAddress} reports cluster id ${reported}, members report ${clusterId}`,
    );
  }
}

function hasHeaderError(answer: GetMembersResponse): boolean {
  const error = answer.header?.error;
  return !!error && error.type !== 0;
}

function describeFailure(error: unknown): string {
  if (isServiceError(error)) return describeServiceError(error);
  return error instanceof Error ? error.message : String(error);
}
