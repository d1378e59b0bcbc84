import type {
  ChildStatement,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  UploadDigest,
} from '../repository-adapters/repository-adapter.js';
import { isMissingResource } from '../curation-jobs/work/missing-resource.js';

/*
 * The target's named creation (copy-design.md, named-children.ts): a copy is created at exactly
 * `<parent>/<name>` with `If-None-Match: *`, so it lands where the plan said and never replaces anything
 * (a `TargetExistsError` when something is there).
 */

/** Creates a container at `<parent>/<name>`; answers its IRI. */
export function createNamedChild(
  adapter: RepositoryAdapter,
  parentUri: string,
  name: string,
  statements: readonly ChildStatement[],
): Promise<string> {
  return adapter.createChild(parentUri, statements, undefined, { name });
}

/** Uploads a binary at `<parent>/<name>`, streaming; answers its IRI. */
export function uploadNamedBinary(
  adapter: RepositoryAdapter,
  parentUri: string,
  name: string,
  binary: NewBinary,
  digest?: UploadDigest,
): Promise<string> {
  return adapter.uploadBinary(parentUri, binary, undefined, {
    name,
    ...(digest !== undefined && { digest }),
  });
}

/** Whether a resource is at `uri` (one HEAD). */
export function targetExists(adapter: RepositoryAdapter, uri: string): Promise<boolean> {
  return adapter.exists(uri);
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
