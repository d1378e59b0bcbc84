import type {
  ChildStatement,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  TransactionRef,
} from '../repository-adapters/repository-adapter.js';
import { isMissingResource } from '../curation-jobs/work/missing-resource.js';

/**
 * Named creation on the target (copy-design.md): a resource created at exactly `<parent>/<name>` with
 * `If-None-Match: *`, refused with `TargetExistsError` when something is there, and `exists`.
 */
interface NamingAdapter {
  createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx: TransactionRef | undefined,
    options: { readonly name?: string },
  ): Promise<string>;
  uploadBinary(
    parentUri: string,
    binary: NewBinary,
    tx: TransactionRef | undefined,
    options: { readonly name?: string },
  ): Promise<string>;
  exists?(uri: string): Promise<boolean>;
}

function naming(adapter: RepositoryAdapter): NamingAdapter {
  return adapter;
}

/** Creates a container at `<parent>/<name>`; answers its IRI. */
export function createNamedChild(
  adapter: RepositoryAdapter,
  parentUri: string,
  name: string,
  statements: readonly ChildStatement[],
): Promise<string> {
  return naming(adapter).createChild(parentUri, statements, undefined, { name });
}

/** Uploads a binary at `<parent>/<name>`, streaming; answers its IRI. */
export function uploadNamedBinary(
  adapter: RepositoryAdapter,
  parentUri: string,
  name: string,
  binary: NewBinary,
): Promise<string> {
  return naming(adapter).uploadBinary(parentUri, binary, undefined, { name });
}

/** Whether a resource is at `uri` (HEAD on adapters that have `exists`, else a describe). */
export async function targetExists(adapter: RepositoryAdapter, uri: string): Promise<boolean> {
  const named = naming(adapter);
  if (named.exists !== undefined) return named.exists(uri);
  return (await describeIfThere(adapter, uri)) !== undefined;
}

/** The resource's description, or undefined when it is not there (404, 410). */
export async function describeIfThere(
  adapter: RepositoryAdapter,
  uri: string,
): Promise<ResourceDescription | undefined> {
  try {
    return await adapter.describe(uri);
  } catch (error) {
    if (isMissingResource(error)) return undefined;
    throw error;
  }
}
