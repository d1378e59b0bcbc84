import type { JobScope } from '../curation-jobs/curation-job.js';
import { isListedScope } from '../curation-jobs/curation-job.js';
import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import type { CopyKind } from './copy-items.store.js';

/** Why a source IRI has no place in the target (the resource is then not copied; its plan row says why). */
export class UnmappableSourceError extends Error {}

/** Where one resource's copy goes. */
export interface CopyTarget {
  readonly targetUri: string;
  /** The container the copy is created in. */
  readonly parentTargetUri: string;
  /** The copy's last segment, decoded (what named creation is given). */
  readonly name: string;
  /** Levels below the copy root (the job's context, or each hit of a listed scope): 0. */
  readonly depth: number;
}

/**
 * Maps a COPY job's source IRIs to their target IRIs (DECISIONS.md §16): deterministic, so the plan can
 * name every target before anything is written. The job's context goes to `<targetContext>/<its last
 * segment>` and each resource of a containment scope to that plus its path below the context; a listed
 * scope's hits (QUERY, MEMBERS) each go directly under the target context by their last segment. Segments
 * keep their decoded names, re-encoded for the target; LDP containers end with `/`, binaries do not, and
 * Fedora IRIs never do. Nothing maps outside the target context: a segment that would climb (`..`), hide a
 * `/` (`%2F`) or name a Fedora endpoint (`fcr:…`) is refused.
 */
export class CopyTargets {
  private readonly base: string;
  private readonly contextPath: readonly string[];

  constructor(
    private readonly targetKind: RepositoryKind,
    private readonly targetContextUri: string,
    private readonly sourceContextUri: string,
    private readonly scope: JobScope,
  ) {
    this.base = `${withoutSlash(targetContextUri)}/`;
    this.contextPath = pathSegments(sourceContextUri);
  }

  /** Where `sourceUri` (a resource of the job's scope, of `kind`) is copied to. */
  targetOf(sourceUri: string, kind: CopyKind): CopyTarget {
    if (isListedScope(this.scope)) return this.place([], lastSegment(sourceUri), kind);
    const below = segmentsBelow(this.sourceContextUri, sourceUri);
    if (below === undefined)
      throw new UnmappableSourceError(`${sourceUri} is not inside ${this.sourceContextUri}`);
    const root = this.contextPath.at(-1);
    if (root === undefined)
      throw new UnmappableSourceError(
        `${this.sourceContextUri} has no name to give its copy (copy its children from a named container)`,
      );
    const path = [root, ...below];
    return this.place(path.slice(0, -1), path.at(-1) ?? root, kind);
  }

  private place(ancestors: readonly string[], name: string, kind: CopyKind): CopyTarget {
    for (const segment of [...ancestors, name]) checkSegment(segment, this.targetKind);
    let parent = this.base;
    for (const ancestor of ancestors) parent = this.child(parent, ancestor, 'CONTAINER');
    const targetUri = this.child(parent, name, kind);
    // Belt and braces: whatever the segments were, the copy is inside the target context.
    if (!targetUri.startsWith(this.base) || targetUri.length <= this.base.length)
      throw new UnmappableSourceError(`${targetUri} would be outside ${this.base}`);
    const parentTargetUri = ancestors.length === 0 ? this.parentOfRoot() : parent;
    return { targetUri, parentTargetUri, name, depth: ancestors.length };
  }

  /** The target context as the job names it (a Fedora root ends with `/`, its other IRIs do not). */
  private parentOfRoot(): string {
    return this.targetContextUri;
  }

  private child(parent: string, name: string, kind: CopyKind): string {
    const slash = this.targetKind === 'LDP' && kind === 'CONTAINER' ? '/' : '';
    return `${withoutSlash(parent)}/${encodeSegment(name)}${slash}`;
  }
}

/** A decoded segment re-encoded for an IRI path, as the adapters' named creation encodes a name. */
export function encodeSegment(name: string): string {
  return encodeURIComponent(name);
}

/** The decoded path segments of `uri` below `ancestorUri`; undefined when it is not at or below it. */
export function segmentsBelow(ancestorUri: string, uri: string): string[] | undefined {
  const ancestor = withoutSlash(stripHash(ancestorUri));
  const target = withoutSlash(stripHash(uri));
  if (target === ancestor) return [];
  if (!target.startsWith(`${ancestor}/`)) return undefined;
  return target
    .slice(ancestor.length + 1)
    .split('/')
    .map(decodeSegment);
}

/** The decoded last path segment of an IRI (a trailing slash aside). */
export function lastSegment(uri: string): string {
  const segments = pathSegments(uri);
  const last = segments.at(-1);
  if (last === undefined) throw new UnmappableSourceError(`${uri} has no name to give its copy`);
  return last;
}

function pathSegments(uri: string): string[] {
  let pathname: string;
  try {
    pathname = new URL(uri).pathname;
  } catch {
    throw new UnmappableSourceError(`${uri} is not an absolute IRI`);
  }
  return pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: the segment is its own name.
    return segment;
  }
}

/** Names named creation refuses (named-children.ts), refused here already so the plan says so. */
function checkSegment(segment: string, kind: RepositoryKind): void {
  const refuse = (why: string) => {
    throw new UnmappableSourceError(`A segment named ${JSON.stringify(segment)} ${why} and cannot be copied`);
  };
  if (segment === '' || /^\.+$/u.test(segment)) refuse('is only dots or empty');
  if (segment.length > 255) refuse('is longer than 255 characters');
  if (segment.includes('/') || segment.includes('\\') || /%2f|%5c/iu.test(segment)) refuse('holds a slash');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(segment)) refuse('holds control characters');
  if (kind === 'FEDORA' && /^(fcr|tx):/iu.test(segment)) refuse("is a Fedora endpoint's name");
  if (kind === 'LDP' && /\.(meta|acl|acr)$/iu.test(segment)) refuse("is a Solid server's auxiliary resource");
}

function withoutSlash(uri: string): string {
  return uri.endsWith('/') ? uri.slice(0, -1) : uri;
}

function stripHash(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}
