import { createFileRoute } from '@tanstack/react-router';
import { ApiError } from '../../api/errors';
import { isAdmin, readSession } from '../../api/session';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { serviceStatusQuery } from '../../features/service-status/api';
import { ServiceStatusScreen } from '../../features/service-status/components/service-status-screen';

/** An administrator's screen (DECISIONS.md §17): the readiness of this instance's dependencies. */
export const Route = createFileRoute('/_app/service-status')({
  beforeLoad: () => {
    if (!isAdmin(readSession()))
      throw new ApiError(403, 'UNAUTHORIZED', 'The service status is shown to an administrator.');
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(serviceStatusQuery()),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: ServiceStatusScreen,
});
