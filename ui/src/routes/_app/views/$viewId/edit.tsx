import { Stack, Title } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { isAdmin, readSession } from '../../../../api/session';
import { ErrorAlert } from '../../../../components/query-states';
import {
  schemaChoicesQuery,
  userChoicesQuery,
  viewQuery,
  viewTypesQuery,
} from '../../../../features/repository-views/api';
import { ViewForm } from '../../../../features/repository-views/components/view-form';

/** Editing a view: an admin, or a curator of it (the service decides). */
export const Route = createFileRoute('/_app/views/$viewId/edit')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(viewQuery(Number(params.viewId))),
      context.queryClient.ensureQueryData(viewTypesQuery()),
      context.queryClient.ensureQueryData(schemaChoicesQuery()),
      ...(isAdmin(readSession()) ? [context.queryClient.ensureQueryData(userChoicesQuery())] : []),
    ]),
  component: EditViewPage,
});

function EditViewPage() {
  const { viewId } = Route.useParams();
  const navigate = useNavigate();
  const admin = isAdmin(readSession());
  const { data: view } = useSuspenseQuery(viewQuery(Number(viewId)));
  const users = useQuery({ ...userChoicesQuery(), enabled: admin });
  return (
    <Stack>
      <Title order={1}>Edit repository view {view.name}</Title>
      {users.error !== null && <ErrorAlert error={users.error} />}
      <ViewForm
        key={view.id}
        view={{ ...view, id: view.id ?? Number(viewId) }}
        admin={admin}
        users={users.data}
        onSaved={() => void navigate({ to: '/views' })}
      />
    </Stack>
  );
}
