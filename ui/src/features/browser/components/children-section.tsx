import {
  Badge,
  Button,
  Group,
  List,
  Modal,
  Pagination,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useId, useState } from 'react';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { AnchorLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { EmptyState } from '../../../components/query-states';
import { CHILDREN_PER_PAGE, useAddChild } from '../api';
import { useChildrenPage } from '../children-page';
import { addChildSchema, type AddChildValues } from '../forms/add-child.schema';

const DCTERMS_TITLE = 'http://purl.org/dc/terms/title';

/** The `Add child` dialog: a title (dcterms:title) for ONE new container. */
function AddChildDialog({
  resource,
  opened,
  onClose,
}: {
  resource: ResourceRef;
  opened: boolean;
  onClose: () => void;
}) {
  const add = useAddChild(resource);
  const form = useForm<AddChildValues>({
    mode: 'uncontrolled',
    initialValues: { title: '' },
    validate: zod4Resolver(addChildSchema),
  });
  const close = () => {
    form.reset();
    add.reset();
    onClose();
  };
  const titleError = (error: unknown) =>
    error instanceof ApiError ? (error.fields.object ?? error.fields.title) : undefined;
  return (
    <Modal opened={opened} onClose={close} title="Add child" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={form.onSubmit(async (values) => {
          try {
            const literal = `"${values.title.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
            await add.mutateAsync([{ subject: '', predicate: DCTERMS_TITLE, object: literal }]);
            close();
          } catch (error) {
            const message = titleError(error);
            if (message !== undefined) form.setErrors({ title: message });
          }
        })}
      >
        <Stack>
          <Text size="sm">A new container is created inside this one, titled with dcterms:title.</Text>
          <TextInput label="Title" data-autofocus key={form.key('title')} {...form.getInputProps('title')} />
          {add.error !== null && titleError(add.error) === undefined && <ErrorAlert error={add.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The `Children` region: 25 a page, sorted by name, the page a search param, each child a link that
 * browses it. The page comes from the view's index (children-page.ts): no child is read to show it.
 */
export function ChildrenSection({
  resource,
  context,
  contextUpdatedAt,
  page,
  onPageChange,
}: {
  resource: ResourceRef;
  context: Context;
  /** When the context was last read: the index is asked again for a while after it changes. */
  contextUpdatedAt: number;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const { rows, total, pages, current } = useChildrenPage(resource, context, contextUpdatedAt, page);

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Group justify="space-between">
        <Title order={2} id={headingId}>
          Children
        </Title>
        {!context.resource && !context.isVersion && (
          <Button onClick={() => setAdding(true)}>Add child</Button>
        )}
      </Group>
      {total === 0 ? (
        <EmptyState>
          {context.resource ? 'A binary has no children.' : 'This container has no children yet.'}
        </EmptyState>
      ) : (
        <>
          <Text size="sm" c="gray.7">
            {total === 1 ? '1 child' : `${total} children`}
            {pages > 1 && `, page ${current} of ${pages}`}
          </Text>
          {rows === undefined ? (
            <Stack gap={6} aria-busy="true" aria-label="Loading children">
              {Array.from({ length: Math.min(CHILDREN_PER_PAGE, total) }, (_, index) => (
                <Skeleton key={index} height={18} width="60%" />
              ))}
            </Stack>
          ) : (
            <List listStyleType="none" spacing={6} aria-label="Children of this resource">
              {rows.map((child) => (
                <List.Item key={child.contextUri}>
                  <Group gap="xs" wrap="nowrap">
                    <Badge size="sm" variant="light" color={child.resource ? 'grape' : 'blue'}>
                      {child.resource ? 'Binary' : 'Container'}
                    </Badge>
                    <AnchorLink
                      to="/views/$viewId/browse"
                      params={{ viewId: String(resource.view.id) }}
                      search={{ uri: child.contextUri, tx: resource.tx }}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {child.name}
                    </AnchorLink>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
          {pages > 1 && (
            <nav aria-label="Children pages">
              <Pagination
                total={pages}
                value={current}
                onChange={onPageChange}
                siblings={1}
                getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
                getControlProps={(control) => ({
                  'aria-label': {
                    first: 'First page',
                    previous: 'Previous page',
                    next: 'Next page',
                    last: 'Last page',
                  }[control],
                })}
              />
            </nav>
          )}
        </>
      )}
      <AddChildDialog resource={resource} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
