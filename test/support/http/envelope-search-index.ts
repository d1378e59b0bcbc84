import type { CurrentView, RouteCases } from './envelope.js';

const RV = '/repository-view-context/:type/:repositoryViewId';

/**
 * The route walk's cases for a view's search index (status and reindex), run against the embedded view of
 * the test; each fails on a view that does not exist.
 */
export function searchIndexCases(walk: CurrentView): Record<string, RouteCases> {
  return {
    [`GET ${RV}/search/status`]: {
      success: () => Promise.resolve({ method: 'GET', url: `${walk.v.prefix}/search/status` }),
      failure: {
        call: { method: 'GET', url: '/repository-view-context/FEDORA/987654/search/status' },
        http: 404,
        status: 'ERROR',
      },
    },
    [`POST ${RV}/search/reindex`]: {
      success: () => Promise.resolve({ method: 'POST', url: `${walk.v.prefix}/search/reindex` }),
      failure: {
        call: { method: 'POST', url: '/repository-view-context/FEDORA/987654/search/reindex' },
        http: 404,
        status: 'ERROR',
      },
    },
  };
}
