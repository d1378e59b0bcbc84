import { Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useId, useState } from 'react';
import type { Context } from '../../../api/context-types';
import { contextKeys, type ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState, ErrorAlert } from '../../../components/query-states';
import { createVersion, deleteVersion, restoreVersion } from '../api';
import { versionNameSchema, type VersionNameValues } from '../forms/version-name.schema';

/** When the repository named it: the time as the reader's locale writes it, else as given. */
function formatTime(time: string): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? time : date.toLocaleString();
}

/**
 * The `Versions` region: the resource's versions (with who created each, when the route knows it from the
 * audit trail), `Create version`, restore and delete (both ask first).
 */
export function VersionsSection({
  resource,
  context,
  createdBy,
}: {
  resource: ResourceRef;
  context: Context;
  /** The username that created a version, if known. */
  createdBy?: (version: { uri: string; name: string }) => string | undefined;
}) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const changed = () => queryClient.invalidateQueries({ queryKey: contextKeys.view(resource.view.id) });

  const restore = useMutation({
    mutationFn: (versionUri: string) => restoreVersion(resource.view, versionUri),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (versionUri: string) => deleteVersion(resource.view, versionUri),
    onSuccess: changed,
  });

  const supported = context.features.versioning !== false;
  const versions = context.versions;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Group justify="space-between">
        <Title order={2} id={headingId}>
          Versions
        </Title>
        {supported && !context.isVersion && (
          <Button variant="light" size="sm" onClick={() => setCreating(true)}>
            Create version
          </Button>
        )}
      </Group>
      {restore.error !== null && <ErrorAlert error={restore.error} />}
      {remove.error !== null && <ErrorAlert error={remove.error} />}
      {!supported ? (
        <EmptyState>This repository does not keep versions.</EmptyState>
      ) : context.isVersion ? (
        <EmptyState>This is a version: open the resource itself to see its versions.</EmptyState>
      ) : resource.tx !== undefined && versions.length === 0 ? (
        <EmptyState>Versions are not listed inside a transaction.</EmptyState>
      ) : versions.length === 0 ? (
        <EmptyState>No versions yet.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.map((version) => {
                const uri = version.triple.object;
                const creator = createdBy?.({ uri, name: version.name });
                return (
                  <Table.Tr key={uri}>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-word' }}>
                        {version.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatTime(version.time)}</Text>
                      {creator !== undefined && <Text size="xs">created by {creator}</Text>}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <ConfirmAction
                          size="xs"
                          variant="subtle"
                          label="Restore"
                          buttonLabel={`Restore ${version.name}`}
                          title={`Restore ${version.name}?`}
                          message="The resource's current state is replaced by this version's."
                          confirmLabel="Restore"
                          loading={restore.isPending}
                          onConfirm={() => restore.mutateAsync(uri).catch(() => undefined)}
                        />
                        <ConfirmAction
                          size="xs"
                          variant="subtle"
                          label="Delete"
                          buttonLabel={`Delete ${version.name}`}
                          title={`Delete ${version.name}?`}
                          message="This version will be deleted; the resource itself stays as it is."
                          confirmLabel="Delete version"
                          loading={remove.isPending}
                          onConfirm={() => remove.mutateAsync(uri).catch(() => undefined)}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateVersionDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreate={async (name) => {
          await createVersion(resource, name);
          await changed();
        }}
      />
    </Stack>
  );
}

function CreateVersionDialog({
  opened,
  onClose,
  onCreate,
}: {
  opened: boolean;
  onClose: () => void;
  onCreate: (name: string) => Promise<void>;
}) {
  const form = useForm<VersionNameValues>({
    mode: 'uncontrolled',
    initialValues: { name: '' },
    validate: zod4Resolver(versionNameSchema),
  });
  const create = useMutation({
    mutationFn: (values: VersionNameValues) => onCreate(values.name.trim()),
    onSuccess: () => {
      form.reset();
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0)
        form.setErrors({ name: Object.values(error.fields).join(' ') });
    },
  });
  const close = () => {
    create.reset();
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Create version" centered>
      <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
        <Stack>
          <TextInput
            label="Version name"
            description="Optional: a label for this version, where the repository keeps labels."
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          {create.error !== null &&
            !(create.error instanceof ApiError && Object.keys(create.error.fields).length > 0) && (
              <ErrorAlert error={create.error} />
            )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
