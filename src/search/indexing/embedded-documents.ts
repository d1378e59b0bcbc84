import type { Quad } from 'n3';
import { serverManagedQuads } from '../../embedded-repository/rdf/server-managed.js';
import { IriMapper } from '../../embedded-repository/rdf/terms.js';
import { isWithin } from '../../embedded-repository/store/paths.js';
import { fromRow } from '../../embedded-repository/store/record.js';
import type { RepoResourceRow } from '../../embedded-repository/store/repository.table.js';
import { parseStored } from '../../linked-data/rdf/serialize.js';
import { parseRoot } from '../../repository-adapters/uri-confinement.js';
import { documentOf } from '../search-document.js';
import type { SearchDocument } from '../search.js';
import type { EmbeddedView } from '../search-view.store.js';

/**
 * A view on the embedded repository as the feed writes it: the repository path of its root, and the
 * mapping from stored IRIs (`info:fedora/<path>`) to the view's (`<base><path>`), the same mapping the
 * repository applies when it answers the view's requests.
 */
export interface ViewTarget {
  readonly viewId: number;
  readonly rootPath: string;
  readonly mapper: IriMapper;
}

/** Where the embedded repository is mounted (`embedded-repository/http/paths.ts`, `MOUNT`), with its slash. */
const MOUNT = '/rest/';
/** RFC 3986 unreserved characters: the repository stores them decoded in paths. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The embedded base of a root URI (`<origin>/rest/`), or undefined when the root is not under `/rest/`. */
export function embeddedBaseOf(rootUri: string): string | undefined {
  try {
    const root = parseRoot(rootUri);
    return root.path.startsWith(MOUNT) ? `${root.origin}${MOUNT}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The repository path a view's root names, canonical as the store keeps paths (percent-encodings upper
 * case, unreserved characters decoded: `/rest/a%7e/` → `a~`); undefined when it names no resource
 * (`/rest/fcr:tx`, a root outside `/rest/`, a malformed URI).
 */
export function rootPathOf(rootUri: string): string | undefined {
  let path: string;
  try {
    path = parseRoot(rootUri).path;
  } catch {
    return undefined;
  }
  if (!path.startsWith(MOUNT)) return undefined;
  const segments = path
    .slice(MOUNT.length)
    .split('/')
    .filter((segment) => segment !== '');
  if (segments.some((segment) => segment.toLowerCase().startsWith('fcr:'))) return undefined;
  return segments
    .map((segment) =>
      segment.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
        const char = String.fromCharCode(Number.parseInt(hex, 16));
        return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
      }),
    )
    .join('/');
}

export function viewTargetOf(view: EmbeddedView): ViewTarget | undefined {
  const rootPath = rootPathOf(view.rootUri);
  if (rootPath === undefined) return undefined;
  return { viewId: view.viewId, rootPath, mapper: new IriMapper(view.base.replace(/\/$/, '')) };
}

/** Whether the view's root covers the repository path (the root itself or anything below it). */
export function covers(view: ViewTarget, path: string): boolean {
  return isWithin(path, view.rootPath);
}

/** The IRI of a repository path in the view. */
export function iriIn(view: ViewTarget, path: string): string {
  return view.mapper.external(path);
}

/**
 * The documents of one stored resource in each of `views` (those covering it): its user statements and the
 * server-managed statements the repository answers for it (fedora:lastModified, ebucore:hasMimeType,
 * ebucore:filename, premis:hasSize, …: the repository's own function), under the view's IRIs, through
 * `documentOf` — so a document written here is the document an INDEX job writes from the same resource
 * described through the view's adapter. The view's root has no parent in the view. Throws when the stored
 * statements cannot be read.
 */
export function documentsOf(
  row: RepoResourceRow,
  views: readonly ViewTarget[],
): { viewId: number; document: SearchDocument }[] {
  const record = fromRow(row);
  const stored = parseStored(record.triples);
  return views.map((view) => {
    const { mapper } = view;
    const quads: Quad[] = [
      ...serverManagedQuads(record, mapper),
      ...stored.map((q) => mapper.mapQuad(q, 'external')),
    ];
    const parent =
      record.path === view.rootPath || record.parent === null ? null : mapper.external(record.parent);
    return {
      viewId: view.viewId,
      document: documentOf({
        iri: mapper.external(record.path),
        parent,
        binary: record.kind === 'binary',
        quads,
      }),
    };
  });
}
