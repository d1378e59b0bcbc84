import { createFileRoute } from '@tanstack/react-router';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { usersQuery } from '../../features/admin-users/api';
import { UsersScreen } from '../../features/admin-users/components/users-screen';

export const Route = createFileRoute('/_app/users')({
  loader: ({ context }) => context.queryClient.ensureQueryData(usersQuery()),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: UsersScreen,
});
