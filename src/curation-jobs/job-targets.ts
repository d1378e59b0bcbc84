import type { Principal } from '../auth/roles.js';
import type { Operator } from '../operators/operator.js';
import type { OperatorsInOrder } from '../operators/operator.store.js';
import type { RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { ScopeFinder } from '../search/search.js';
import { businessMessages as msg } from '../shared/business-messages.js';
import { NotFoundError } from '../shared/errors.js';
import type { JobTarget, ViewScopes } from './work/job-work.js';

/*
 * What a job's runner is given to work with, resolved when it runs (not when the job was created): the view
 * with its adapter, schemas and search, and the stored operators in order.
 */

/**
 * A job's view for its runner (no caller: the job was permission-checked when it was created), with search
 * bound to it when the service has search (QUERY and MEMBERS scopes).
 */
export function jobTargetOpener(
  views: RepositoryViewService,
  scopes?: ScopeFinder,
): (viewId: number) => Promise<JobTarget> {
  const runner: Principal = {
    userId: 0,
    username: 'curation-job-runner',
    role: 'ROLE_ADMIN',
    tokenHash: '',
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
  return async (viewId) => {
    let view;
    try {
      view = await views.get(viewId, runner);
    } catch (error) {
      if (error instanceof NotFoundError) throw new Error(`Repository view ${viewId} no longer exists`);
      throw error;
    }
    const opened = await views.open(view.type, view.id, runner);
    return {
      adapter: opened.adapter,
      schemas: opened.schemas,
      rootUri: opened.view.rootUri,
      ...(scopes !== undefined && { scopes: viewScopes(scopes, view.id) }),
    };
  };
}

/** The finder bound to one view. */
export function viewScopes(finder: ScopeFinder, viewId: number): ViewScopes {
  return {
    matching: (contextUri, query) => finder.matching(viewId, contextUri, query),
    membersOf: (contextUri) => finder.membersOf(viewId, contextUri),
  };
}

/**
 * The stored operators with these ids, in this order, for a run; a missing one fails the job. The store's
 * `inOrder` orders them (and keeps the ordered list while nothing is written), as for `POST /operators/apply`.
 */
export function operatorsInOrder(
  inOrder: (ids: readonly number[]) => Promise<OperatorsInOrder>,
): (ids: readonly number[]) => Promise<readonly Operator[]> {
  return async (ids) => {
    const { operators, missing } = await inOrder(ids);
    const [gone] = missing;
    if (gone !== undefined)
      throw new Error(`${msg.doesNotExist('Operator', gone)} (deleted after the job was created)`);
    return operators;
  };
}
