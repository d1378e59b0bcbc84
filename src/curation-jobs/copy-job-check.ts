import type { Principal } from '../auth/roles.js';
import { resolveContextUri } from '../repository-view-context/context-uri.js';
import type { OpenedView, RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { CheckedBody } from '../shared/body-check.js';
import { businessMessages as msg } from '../shared/business-messages.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { CurationJobBody } from './curation-job.schema.js';

/** Where a COPY job copies to: the target view and the container (absolute IRI) the copies go under. */
export interface CopyTarget {
  readonly viewId: number;
  readonly contextUri: string;
}

export interface CopyCheckContext {
  readonly views: RepositoryViewService;
  readonly caller: Principal;
  /** The source view opened for the caller (undefined when it is missing: its problem is told already). */
  readonly source: OpenedView | undefined;
  /** The source context, resolved against the source view's root (undefined when it did not resolve). */
  readonly contextUri: string | undefined;
}

/**
 * The COPY kind's rules on `POST /curation-job` (DECISIONS.md §16 "Safety"), told with the body's other
 * problems so nothing starts: the target fields only on COPY and both on COPY; a target view the caller
 * curates (else 403, naming it, as a source view they do not curate is refused); a target container inside
 * the target view's root, without credentials, existing and able to hold children; source and target not
 * overlapping in one repository (a copy into its own subtree would walk what it writes); both views'
 * credentials accepted. Answers the target when every check passed.
 */
export async function checkCopyFields(
  body: CheckedBody<CurationJobBody>,
  context: CopyCheckContext,
): Promise<CopyTarget | undefined> {
  const { collector } = body;
  const kind = body.get('kind');
  const viewId = body.get('targetRepositoryViewId') ?? undefined;
  const requested = body.get('targetContextUri') ?? undefined;
  if (kind !== 'COPY') {
    if (kind === undefined) return undefined;
    if (viewId !== undefined)
      collector.add(
        'targetRepositoryViewId',
        'type',
        `Only a COPY job takes a targetRepositoryViewId, not a ${kind} job`,
      );
    if (requested !== undefined)
      collector.add(
        'targetContextUri',
        'type',
        `Only a COPY job takes a targetContextUri, not a ${kind} job`,
      );
    return undefined;
  }
  const operators = body.get('operators');
  if (operators !== undefined && operators !== null && operators.length > 0)
    collector.add('operators', 'type', 'A COPY job takes no operators');
  if (viewId === undefined)
    collector.add('targetRepositoryViewId', 'required', 'A COPY job requires a targetRepositoryViewId');
  if (requested === undefined)
    collector.add('targetContextUri', 'required', 'A COPY job requires a targetContextUri');
  if (viewId === undefined) return undefined;

  const target = await openTarget(context, viewId);
  if (target === undefined) {
    collector.add('targetRepositoryViewId', 'exists', msg.doesNotExist('RepositoryView', viewId));
    return undefined;
  }
  const sourceAuth = context.source === undefined ? { ok: true } : await context.source.adapter.checkAuth();
  if (!sourceAuth.ok && context.source !== undefined)
    collector.add(
      'repositoryViewId',
      'type',
      `The source repository view ${context.source.view.id} refused the service's credentials: ${sourceAuth.message ?? 'Authentication failed'}`,
    );
  const targetAuth = await target.adapter.checkAuth();
  if (!targetAuth.ok)
    collector.add(
      'targetRepositoryViewId',
      'type',
      `The target repository view ${viewId} refused the service's credentials: ${targetAuth.message ?? 'Authentication failed'}`,
    );
  if (requested === undefined) return undefined;
  const targetUri = resolveTarget(body, target, requested);
  if (targetUri === undefined) return undefined;
  const overlapping =
    context.contextUri === undefined
      ? undefined
      : overlap(context.contextUri, targetUri, context.source, target);
  if (overlapping !== undefined) {
    collector.add('targetContextUri', 'pattern', overlapping);
    return undefined;
  }
  if (!targetAuth.ok) return undefined;
  const holding = await cannotHold(target, targetUri);
  if (holding !== undefined) {
    collector.add('targetContextUri', 'exists', holding);
    return undefined;
  }
  return { viewId, contextUri: targetUri };
}

/**
 * The target view opened for the caller; undefined when it does not exist (an administrator's view of it).
 * A curator who does not curate it is refused outright (403), as for any view they do not curate.
 */
async function openTarget(context: CopyCheckContext, viewId: number): Promise<OpenedView | undefined> {
  const { views, caller } = context;
  try {
    const view = await views.get(viewId, caller);
    return await views.open(view.type, view.id, caller);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    if (error instanceof ForbiddenError)
      throw new ForbiddenError(
        `You are not a curator of the target repository view ${viewId}: a COPY job needs a curator of both views`,
      );
    throw error;
  }
}

/** The target container as an absolute IRI inside the target view's root, or undefined (told why). */
function resolveTarget(
  body: CheckedBody<CurationJobBody>,
  target: OpenedView,
  requested: string,
): string | undefined {
  const { collector } = body;
  const root = target.view.rootUri;
  // The URL's origin leaves user:password@ out, so the root check alone would let them through.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(requested.trim())) {
    collector.add('targetContextUri', 'pattern', "A COPY job's targetContextUri must not carry credentials");
    return undefined;
  }
  try {
    const resolved = resolveContextUri(root, requested);
    if (resolved.tx === undefined) return resolved.uri;
    collector.add('targetContextUri', 'pattern', "A COPY job's targetContextUri must not name a transaction");
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    collector.add(
      'targetContextUri',
      'pattern',
      `A COPY job's targetContextUri must lie inside target repository view ${target.view.id}'s root ${root}: ${error.message}`,
    );
  }
  return undefined;
}

/**
 * Why source and target overlap in one repository (same origin): the target equal to or inside the source
 * (the copy would walk what it writes), or the source inside the target; undefined when they do not.
 */
function overlap(
  sourceUri: string,
  targetUri: string,
  source: OpenedView | undefined,
  target: OpenedView,
): string | undefined {
  if (source === undefined || new URL(sourceUri).origin !== new URL(targetUri).origin) return undefined;
  const from = withoutSlash(sourceUri);
  const to = withoutSlash(targetUri);
  const where = source.view.id === target.view.id ? 'in the same view' : 'in the same repository';
  if (to === from)
    return `A COPY job's target ${targetUri} is its source ${sourceUri} (${where}); choose a container outside the source`;
  if (to.startsWith(`${from}/`))
    return `A COPY job's target ${targetUri} lies inside its source ${sourceUri} (${where}); choose a container outside the source`;
  if (from.startsWith(`${to}/`))
    return `A COPY job's source ${sourceUri} lies inside its target ${targetUri} (${where}); choose a container outside the source`;
  return undefined;
}

function withoutSlash(uri: string): string {
  return uri.endsWith('/') ? uri.slice(0, -1) : uri;
}

/** Why the target container cannot take the copies (missing, a binary, unreadable); undefined when it can. */
async function cannotHold(target: OpenedView, uri: string): Promise<string | undefined> {
  let description;
  try {
    description = await target.adapter.describe(uri);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/\b(404|410)\b/.test(text))
      return `The target ${uri} does not exist in repository view ${target.view.id}, so it cannot hold children`;
    return `The target ${uri} could not be read in repository view ${target.view.id}: ${text}`;
  }
  if (description.isBinary)
    return `The target ${uri} is a binary, which cannot hold binaries or children: choose a container`;
  return undefined;
}
