import { urlHash } from '../../common/url/url-hash';
import type { EgressError } from '../egress/egress-error';
import { formatContractTime, httpDateToContractTime } from './contract-time';
import { failReasonForEgressFailure } from './failure-classification';
import type {
  FailedOutcome,
  FailReason,
  NotModifiedOutcome,
  RefusedOutcome,
  RefusalReason,
} from './render-outcome';

export function failedOutcome(
  failReason: FailReason,
  message: string,
  fetchedAt: Date,
  httpStatus?: number,
): FailedOutcome {
  return {
    kind: 'failed',
    failReason,
    message,
    fetchedAt: formatContractTime(fetchedAt),
    ...(httpStatus === undefined ? {} : { httpStatus }),
  };
}

export function refusedOutcome(
  refusalReason: RefusalReason,
  message: string,
  addressCategory?: RefusedOutcome['addressCategory'],
): RefusedOutcome {
  return {
    kind: 'refused',
    refusalReason,
    message,
    ...(addressCategory === undefined ? {} : { addressCategory }),
  };
}

/** 304: validators from the response when it repeats them, else the ones we sent. */
export function notModifiedOutcome(
  url: string,
  responseHeaders: Readonly<Record<string, string | undefined>>,
  sent: { etag?: string | null; lastModifiedAt?: string | null },
  fetchedAt: Date,
): NotModifiedOutcome {
  return {
    kind: 'not_modified',
    url,
    urlHash: urlHash(url),
    etag: responseHeaders.etag ?? sent.etag ?? null,
    lastModifiedAt:
      httpDateToContractTime(responseHeaders['last-modified']) ?? sent.lastModifiedAt ?? null,
    fetchedAt: formatContractTime(fetchedAt),
  };
}

/** An egress-layer failure as an outcome: refusals stay refusals, the rest become fail reasons. */
export function outcomeOfEgressError(
  error: EgressError,
  fetchedAt: Date,
): FailedOutcome | RefusedOutcome {
  const reason = failReasonForEgressFailure(error.kind);
  if (reason === 'destination_refused' || reason === 'invalid_url') {
    return refusedOutcome(reason, error.message, error.addressCategory);
  }
  return failedOutcome(reason, error.message, fetchedAt);
}
