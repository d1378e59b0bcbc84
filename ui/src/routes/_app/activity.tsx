import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { isAdmin, readSession } from '../../api/session';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { filterOf } from '../../features/audit/activity-filter';
import { activityQuery, activityUsersQuery, activityViewsQuery } from '../../features/audit/api';
import { ActivityScreen } from '../../features/audit/components/activity-screen';

/** The router reads `?username=1920` as a number: a filter is text whatever it looks like. */
const text = z
  .preprocess(
    (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
    z.string().min(1),
  )
  .optional()
  .catch(undefined);

const search = z.object({
  viewId: z.number().int().positive().optional().catch(undefined),
  username: text,
  /** An action name (the API refuses one it does not know, and the screen says so). */
  action: text,
  /** A day (`2026-11-28`) or a date-time; anything else is the API's INVALID, shown. */
  from: text,
  to: text,
  /** The first event shown (pages of 50). */
  offset: z.number().int().min(0).optional().catch(undefined),
});

/** The audit trail by view and by person: administrators only (DECISIONS.md §14). */
export const Route = createFileRoute('/_app/activity')({
  validateSearch: search,
  beforeLoad: () => {
    if (!isAdmin(readSession())) throw redirect({ to: '/views' });
  },
  loaderDeps: ({ search: deps }) => deps,
  loader: async ({ context: { queryClient }, deps }) => {
    // Prefetched, not awaited into the loader: a refused filter (INVALID) is shown beside the form.
    void queryClient.prefetchQuery(activityQuery(filterOf(deps), deps.offset ?? 0));
    await Promise.all([
      queryClient.ensureQueryData(activityViewsQuery()),
      queryClient.ensureQueryData(activityUsersQuery()),
    ]);
  },
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: ActivityPage,
});

function ActivityPage() {
  const state = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ActivityScreen
      state={state}
      onChange={(next) => {
        void navigate({
          search: {
            ...(next.viewId === undefined ? {} : { viewId: next.viewId }),
            ...(next.username === undefined ? {} : { username: next.username }),
            ...(next.action === undefined ? {} : { action: next.action }),
            ...(next.from === undefined ? {} : { from: next.from }),
            ...(next.to === undefined ? {} : { to: next.to }),
            ...(next.offset === undefined || next.offset === 0 ? {} : { offset: next.offset }),
          },
        });
      }}
    />
  );
}
