import type { CurrentView, RouteCases } from './envelope.js';

const RV = '/repository-view-context/:type/:repositoryViewId';

/** The route walk's cases for search (DECISIONS.md §12), against the embedded view of the test. */
export function searchCases(walk: CurrentView): Record<string, RouteCases> {
  return {
    [`GET ${RV}/search`]: {
      success: () => Promise.resolve({ method: 'GET', url: `${walk.v.prefix}/search?q=austin&limit=5` }),
      // A malformed query is INVALID (200), naming where; never a 500.
      failure: {
        call: {
          method: 'GET',
          url: `/repository-view-context/FEDORA/1/search?q=${encodeURIComponent('"open')}`,
        },
        http: 200,
        status: 'INVALID',
      },
    },
  };
}
