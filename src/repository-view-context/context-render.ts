import { featuresOf, requireFacet } from '../repository-adapters/repository-kinds.js';
import type { TransactionInfo } from '../repository-adapters/repository-adapter.js';
import { buildContext, type RepositoryViewContext, type TransactionDetails } from './context-builder.js';
import type { ContextSession } from './context-session.js';
import { tokenOf } from './context-uri.js';

/** The context as the repository has it now (unnamed: the service names it from the index). */
export async function renderContext(session: ContextSession): Promise<RepositoryViewContext> {
  const { opened, context } = session;
  const { adapter } = opened;
  const transactionDetails =
    context.tx === undefined
      ? undefined
      : details(await requireFacet(adapter, 'transactions').refresh(context.tx));
  const description = await adapter.describe(context.uri, context.tx);
  const isVersion = /\/fcr:versions\/[^/]+$/.test(context.uri);
  const versions =
    adapter.versions !== undefined && !isVersion && context.tx === undefined
      ? await adapter.versions.list(context.uri)
      : [];
  // A version's label is listed with the original resource, not at the memento's own address.
  const versionLabel = isVersion
    ? (await requireFacet(adapter, 'versions').list(context.uri.replace(/\/fcr:versions\/[^/]+$/, ''))).find(
        (version) => version.uri === context.uri,
      )?.name
    : undefined;
  return buildContext({
    description,
    isRoot: context.isRoot,
    metadataPrefixes: opened.metadataPrefixes,
    features: featuresOf(adapter),
    versions,
    transactionDetails,
    versionLabel,
  });
}

export function details(info: TransactionInfo): TransactionDetails {
  return { token: tokenOf({ id: info.id }), expiration: info.expiresAt };
}
