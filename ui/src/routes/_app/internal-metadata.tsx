import { createFileRoute } from '@tanstack/react-router';
import { ErrorScreen, PendingScreen } from '../../components/query-states';
import { internalMetadataQuery } from '../../features/admin-internal-metadata/api';
import { InternalMetadataScreen } from '../../features/admin-internal-metadata/components/internal-metadata-screen';

export const Route = createFileRoute('/_app/internal-metadata')({
  loader: ({ context }) => context.queryClient.ensureQueryData(internalMetadataQuery()),
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  component: InternalMetadataScreen,
});
