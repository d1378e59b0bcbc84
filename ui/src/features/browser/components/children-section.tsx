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
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useId, useMemo, useState } from 'react';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { ApiError } from '../../../api/errors';
import { AnchorLink } from '../../../components/links';
import { ErrorAlert } from '../../../components/query-states';
import { EmptyState } from '../../../components/query-states';
import { contextQuery, useAddChild } from '../api';
import { addChildSchema, type AddChildValues } from '../forms/add-child.schema';
import { lastSegment } from '../terms';

export const CHILDREN_PER_PAGE = 25;
const NAMED_UP_TO = 100;
const byText =
  <T,>(text: (item: T) => string) =>
  (a: T, b: T) =>
    text(a).localeCompare(text(b), undefined, { numeric: true });
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
 * The `Children` region: sorted, 25 a page (the page is a search param), each a link that browses it.
 * The service lists children by IRI only, so the shown page's children are read for their names and
 * kinds (and are then in the cache when opened).
 */
export function ChildrenSection({
  resource,
  context,
  page,
  onPageChange,
}: {
  resource: ResourceRef;
  context: Context;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const headingId = useId();
  const [adding, setAdding] = useState(false);
  const iris = useMemo(
    () =>
      context.children
        .flatMap((child) => (child.triple === null ? [] : [child.triple.object]))
        .sort(byText(lastSegment)),
    [context.children],
  );
  // Up to NAMED_UP_TO children are all read for their names, and sorted by them; beyond that only the
  // shown page is read, and the order is by IRI.
  const byName = iris.length <= NAMED_UP_TO;
  const pages = Math.max(1, Math.ceil(iris.length / CHILDREN_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const pageStart = (current - 1) * CHILDREN_PER_PAGE;
  const read = byName ? iris : iris.slice(pageStart, pageStart + CHILDREN_PER_PAGE);
  const details = useQueries({
    queries: read.map((uri) => ({
      ...contextQuery({ view: resource.view, uri, tx: resource.tx }),
      placeholderData: keepPreviousData,
    })),
  });
  const known = new Map(read.map((uri, index) => [uri, details[index]?.data] as const));
  const nameOf = (uri: string) => known.get(uri)?.name ?? lastSegment(uri);
  const allNamed = byName && details.every((detail) => detail.data !== undefined);
  const ordered = allNamed ? [...iris].sort(byText(nameOf)) : iris;
  const shown = ordered.slice(pageStart, pageStart + CHILDREN_PER_PAGE);
  const children = iris;

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
      {children.length === 0 ? (
        <EmptyState>
          {context.resource ? 'A binary has no children.' : 'This container has no children yet.'}
        </EmptyState>
      ) : (
        <>
          <Text size="sm" c="gray.7">
            {children.length === 1 ? '1 child' : `${children.length} children`}
            {pages > 1 && `, page ${current} of ${pages}`}
          </Text>
          <List listStyleType="none" spacing={6} aria-label="Children of this resource">
            {shown.map((uri) => {
              const child = known.get(uri);
              const name = nameOf(uri);
              return (
                <List.Item key={uri}>
                  <Group gap="xs" wrap="nowrap">
                    {child === undefined ? (
                      <Skeleton height={18} width={64} aria-hidden />
                    ) : (
                      <Badge size="sm" variant="light" color={child.resource ? 'grape' : 'blue'}>
                        {child.resource ? 'Binary' : 'Container'}
                      </Badge>
                    )}
                    <AnchorLink
                      to="/views/$viewId/browse"
                      params={{ viewId: String(resource.view.id) }}
                      search={{ uri, tx: resource.tx }}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {name}
                    </AnchorLink>
                  </Group>
                </List.Item>
              );
            })}
          </List>
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
