import { createFileRoute } from '@tanstack/react-router';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { operatorsQuery, operatorTypesQuery } from '../../features/admin-operators/api';
import { OperatorsScreen } from '../../features/admin-operators/components/operators-screen';

export const Route = createFileRoute('/_app/operators')({
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(operatorsQuery()),
      context.queryClient.ensureQueryData(operatorTypesQuery()),
    ]),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: OperatorsScreen,
});
