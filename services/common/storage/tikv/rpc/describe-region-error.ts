import { RegionError } from '../protocol/wire-types';

/** One-line, log-friendly summary of a region error (used in retry-budget messages). */
export function describeRegionError(error: RegionError): string {
  const suffix = error.message ? ` (${error.message})` : '';
  if (error.not_leader) {
    const leader = error.not_leader.leader;
    const target =
      leader && leader.id !== '0'
        ? `leader is peer ${leader.id} on store ${leader.store_id}`
        : 'leader unknown';
    return `NotLeader for region ${error.not_leader.region_id}, ${target}${suffix}`;
  }
  if (error.epoch_not_match) {
    const ids = error.epoch_not_match.current_regions.map((region) => region.id).join(', ');
    return `EpochNotMatch, current regions [${ids}]${suffix}`;
  }
  if (error.server_is_busy) return `ServerIsBusy: ${error.server_is_busy.reason}${suffix}`;
  if (error.store_not_match) {
    const { request_store_id, actual_store_id } = error.store_not_match;
    return `StoreNotMatch: sent to store ${request_store_id}, reached store ${actual_store_id}${suffix}`;
  }
  const kind = Object.keys(error).find(
    (field) => field !== 'message' && error[field as keyof RegionError],
  );
  return `${kind ?? 'region error'}${suffix}`;
}
