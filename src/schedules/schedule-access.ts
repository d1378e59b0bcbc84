import type { Principal } from '../auth/roles.js';
import type { ScheduleRecord } from './schedule.js';

/** The curators of a view as they are now; undefined when the view does not exist. */
export type CuratorsOf = (viewId: number) => Promise<readonly number[] | undefined>;

/**
 * Same permission as the job a schedule starts (DECISIONS.md §15): ADMIN, or a curator of the job's view
 * (a curator's role as well as the curatorship, as the job routes need).
 */
export async function mayUseView(
  curatorsOf: CuratorsOf,
  user: Pick<Principal, 'userId' | 'role'>,
  viewId: number,
): Promise<boolean> {
  if (user.role === 'ROLE_ADMIN') return true;
  if (user.role !== 'ROLE_CURATOR') return false;
  return (await curatorsOf(viewId))?.includes(user.userId) === true;
}

export function mayUse(
  curatorsOf: CuratorsOf,
  user: Pick<Principal, 'userId' | 'role'>,
  schedule: Pick<ScheduleRecord, 'repositoryViewId'>,
): Promise<boolean> {
  return mayUseView(curatorsOf, user, schedule.repositoryViewId);
}
