import { createFileRoute } from '@tanstack/react-router';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { schemasQuery } from '../../features/admin-schemas/api';
import { SchemasScreen } from '../../features/admin-schemas/components/schemas-screen';

export const Route = createFileRoute('/_app/schemas')({
  loader: ({ context }) => context.queryClient.ensureQueryData(schemasQuery()),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: SchemasScreen,
});
