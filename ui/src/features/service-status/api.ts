import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import type { paths } from '../../api/schema.gen';

type ReadyEnvelope = paths['/health/ready']['get']['responses'][200]['content']['application/json'];
/** GET /health/ready's answer (DECISIONS.md §17): each dependency and whether it answers, and the store kind. */
export type Readiness = NonNullable<NonNullable<ReadyEnvelope['payload']>['Readiness']>;

export interface ServiceStatus {
  readonly ready: boolean;
  /** The service's own sentence: what is down, or that all is well. */
  readonly message: string;
  readonly readiness: Readiness;
}

/** Keys of this feature. */
export const serviceStatusKeys = { ready: ['service-status', 'ready'] as const };

/**
 * GET /health/ready, read with a plain fetch: a 503 is an answer here (it names what is down), where the
 * API client would turn it into an error. The route is public; no token is sent.
 */
async function readReadiness(): Promise<ServiceStatus> {
  let response: Response;
  try {
    response = await fetch(new URL('/health/ready', window.location.origin));
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.');
  }
  const envelope = (await response.json().catch(() => null)) as ReadyEnvelope | null;
  const readiness = envelope?.payload?.Readiness;
  if (readiness === undefined || (response.status !== 200 && response.status !== 503))
    throw new ApiError(response.status, 'ERROR', `The service answered HTTP ${String(response.status)}`);
  return { ready: response.status === 200, message: envelope?.meta?.message ?? '', readiness };
}

/** Refreshed every 15 s while the screen is open: a dependency coming back shows without a reload. */
export const serviceStatusQuery = () =>
  queryOptions({ queryKey: serviceStatusKeys.ready, queryFn: readReadiness, refetchInterval: 15_000 });

/** What each check is called on the screen. */
export const CHECK_LABELS: Readonly<Record<string, string>> = {
  database: 'Database',
  binaryStore: 'Binary store',
  jobQueue: 'Curation job queue',
};

export const STORE_LABELS: Readonly<Record<string, string>> = {
  local: 'Local disk',
  s3: 'S3-compatible object storage',
};
