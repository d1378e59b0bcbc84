import { Box, Divider, Group, Stack } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { z } from 'zod';
import type { ResourceRef } from '../../../../api/context-uri';
import { isAdmin, readSession } from '../../../../api/session';
import { AnchorLink } from '../../../../components/links';
import { ErrorScreen, PendingScreen } from '../../../../components/query-states';
import { contextQuery, schemasQuery, viewQuery } from '../../../../features/browser/api';
import { HistorySection } from '../../../../features/audit/components/history-section';
import type { TermFormat } from '../../../../features/audit/components/triple-diff';
import { useVersionCreators } from '../../../../features/audit/version-creators';
import { ChildrenSection } from '../../../../features/browser/components/children-section';
import { MetadataSection } from '../../../../features/browser/components/metadata-section';
import { ResourceHeader } from '../../../../features/browser/components/resource-header';
import { SparqlBox } from '../../../../features/browser/components/sparql-box';
import { TermView } from '../../../../features/browser/components/term-view';
import { useLiveContexts } from '../../../../features/browser/live';
import { compactIri } from '../../../../features/browser/terms';
import { prefixesOf, schemasOfView } from '../../../../features/browser/view-schemas';
import { StartJobButton } from '../../../../features/jobs/components/start-job-button';
import { ExportBag } from '../../../../features/jobs/components/export-bag';
import { CONTAINER_COPY_SCOPES, CopyToView } from '../../../../features/jobs/components/copy-dialog';
import { BrowserSearchBox } from '../../../../features/search/components/search-box';
import { SpreadsheetSection } from '../../../../features/spreadsheets/components/spreadsheet-section';
import { BinaryTools } from '../../../../features/resource-tools/components/binary-tools';
import { TransactionBanner } from '../../../../features/resource-tools/components/transaction-banner';
import { VersionsSection } from '../../../../features/resource-tools/components/versions-section';

const search = z.object({
  /** The resource's IRI; absent: the view's root. */
  uri: z.string().min(1).optional().catch(undefined),
  /** A transaction's token, `tx:<id>`. */
  tx: z.string().startsWith('tx:').optional().catch(undefined),
  /** The children's page (25 a page). */
  page: z.number().int().min(1).optional().catch(undefined),
});

const viewIdOf = (param: string): number => {
  const id = Number(param);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`There is no repository view ${param}`);
  return id;
};

export const Route = createFileRoute('/_app/views/$viewId/browse')({
  validateSearch: search,
  loaderDeps: ({ search: { uri, tx } }) => ({ uri, tx }),
  loader: async ({ context: { queryClient }, params, deps }) => {
    const id = viewIdOf(params.viewId);
    const schemas = queryClient.ensureQueryData(schemasQuery());
    const view = await queryClient.ensureQueryData(viewQuery(id));
    await Promise.all([
      queryClient.ensureQueryData(
        contextQuery({ view: { id, type: view.type }, uri: deps.uri, tx: deps.tx }),
      ),
      schemas,
    ]);
  },
  pendingComponent: PendingScreen,
  errorComponent: BrowseError,
  component: BrowsePage,
});

function BrowseError(props: ErrorComponentProps) {
  const { viewId } = Route.useParams();
  return (
    <Stack>
      <ErrorScreen {...props} />
      <Group gap="md">
        <AnchorLink to="/views/$viewId/browse" params={{ viewId }} search={{}}>
          Open the view’s root
        </AnchorLink>
        <AnchorLink to="/views">Repository views</AnchorLink>
      </Group>
    </Stack>
  );
}

function BrowsePage() {
  const params = Route.useParams();
  const { uri, tx, page = 1 } = Route.useSearch();
  const navigate = Route.useNavigate();
  const id = viewIdOf(params.viewId);
  const { data: view } = useSuspenseQuery(viewQuery(id));
  const { data: allSchemas } = useSuspenseQuery(schemasQuery());
  const resource: ResourceRef = useMemo(
    () => ({ view: { id, type: view.type }, uri, tx }),
    [id, view.type, uri, tx],
  );
  const { data: context, dataUpdatedAt } = useSuspenseQuery(contextQuery(resource));
  const schemas = useMemo(() => schemasOfView(view, allSchemas), [view, allSchemas]);
  const prefixes = useMemo(() => prefixesOf(schemas), [schemas]);
  // History shows triples as the Metadata section does: the view's prefixes, the same value formatting.
  const compact = useCallback((iri: string) => compactIri(iri, prefixes), [prefixes]);
  const format: TermFormat = useMemo(
    () => ({ compact, renderObject: (wire) => <TermView wire={wire} prefixes={prefixes} /> }),
    [compact, prefixes],
  );
  // The ledger names a resource by its IRI (the root's too).
  const iri = context.triple?.subject ?? uri ?? view.rootUri;
  const versionCreator = useVersionCreators(resource.view, iri, !context.isVersion);
  useLiveContexts(id);
  const session = readSession();
  const admin = isAdmin(session);
  // Who may start jobs (the service checks it is a curator of this view).
  const curator = admin || session?.role === 'ROLE_CURATOR';

  return (
    <Stack gap="lg" maw={1100}>
      <ResourceHeader resource={resource} viewName={view.name} context={context} />
      <TransactionBanner
        resource={resource}
        onTxChange={(next) => {
          void navigate({ search: (previous) => ({ ...previous, tx: next }) });
        }}
      />
      {/* Finding and acting on what is found: the view's search beside the job over this container. */}
      <Group gap="sm" align="flex-start">
        <Box style={{ flex: '1 1 320px', maxWidth: 640 }}>
          <BrowserSearchBox viewId={id} container={context.resource ? undefined : uri} />
        </Box>
        <StartJobButton resource={resource} />
      </Group>
      <BinaryTools resource={resource} context={context} />
      <MetadataSection resource={resource} context={context} schemas={schemas} prefixes={prefixes} />
      <ChildrenSection
        resource={resource}
        context={context}
        contextUpdatedAt={dataUpdatedAt}
        page={page}
        onPageChange={(next) => {
          void navigate({ search: (previous) => ({ ...previous, page: next === 1 ? undefined : next }) });
        }}
      />
      {!context.resource && !context.isVersion && (
        <SpreadsheetSection resource={resource} canImport={curator} />
      )}
      {/* A container's bag (DECISIONS.md §15); jobs never run inside a transaction. */}
      {curator && !context.resource && !context.isVersion && resource.tx === undefined && (
        <>
          <ExportBag resource={resource} />
          {/* Copying between views (DECISIONS.md §16): a COPY job's dry run, then apply. */}
          <Group>
            <CopyToView
              view={resource.view}
              contextUri={resource.uri ?? ''}
              scopes={CONTAINER_COPY_SCOPES}
              what="this container"
            />
          </Group>
        </>
      )}
      <VersionsSection resource={resource} context={context} createdBy={versionCreator} />
      <HistorySection
        view={resource.view}
        contextUri={iri}
        isVersion={context.isVersion}
        format={format}
        canRevert={curator}
      />
      {admin && (
        <>
          <Divider />
          <SparqlBox resource={resource} />
        </>
      )}
    </Stack>
  );
}
