import { createFileRoute } from '@tanstack/react-router';
import { ApiError } from '../../api/errors';
import { isAdmin, readSession } from '../../api/session';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { operatorsQuery, operatorTypesQuery } from '../../features/admin-operators/api';
import { OperatorsScreen } from '../../features/admin-operators/components/operators-screen';

/**
 * An administrator's screen. A curator may read the operators (to start MAPPING jobs) but not manage them,
 * so the screen answers "Not allowed" itself rather than show buttons the service refuses.
 */
export const Route = createFileRoute('/_app/operators')({
  beforeLoad: () => {
    if (!isAdmin(readSession()))
      throw new ApiError(403, 'UNAUTHORIZED', 'Operators are managed by an administrator.');
  },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(operatorsQuery()),
      context.queryClient.ensureQueryData(operatorTypesQuery()),
    ]),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: OperatorsScreen,
});
