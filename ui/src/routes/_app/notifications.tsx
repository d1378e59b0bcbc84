import { createFileRoute } from '@tanstack/react-router';
import { ApiError } from '../../api/errors';
import { isAdmin, readSession } from '../../api/session';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { targetsQuery } from '../../features/admin-notifications/api';
import { NotificationsScreen } from '../../features/admin-notifications/components/notifications-screen';

/** An administrator's screen (DECISIONS.md §15): the service refuses everyone else. */
export const Route = createFileRoute('/_app/notifications')({
  beforeLoad: () => {
    if (!isAdmin(readSession()))
      throw new ApiError(403, 'UNAUTHORIZED', 'Notification targets are managed by an administrator.');
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(targetsQuery()),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: NotificationsScreen,
});
