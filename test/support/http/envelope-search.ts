import type { CurrentView, RouteCases } from './envelope.js';

const RV = '/repository-view-context/:type/:repositoryViewId';

/** Another type than the view's: every context route refuses it with 400 ERROR. */
const wrongType = (method: 'GET' | 'POST', suffix: string) => ({
  call: { method, url: `/repository-view-context/LDP/1/search${suffix}` },
  http: 400,
  status: 'ERROR',
});

/** The route walk's cases for search (DECISIONS.md §12) and the export that lists what it finds, against the embedded view of the test. */
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
    [`GET ${RV}/search/status`]: {
      success: () => Promise.resolve({ method: 'GET', url: `${walk.v.prefix}/search/status` }),
      failure: wrongType('GET', '/status'),
    },
    [`POST ${RV}/search/reindex`]: {
      success: () => Promise.resolve({ method: 'POST', url: `${walk.v.prefix}/search/reindex` }),
      failure: wrongType('POST', '/reindex'),
    },
    // The spreadsheet export (DECISIONS.md §13): a CSV download, refusals as envelopes before any byte.
    [`GET ${RV}/export`]: {
      success: () =>
        Promise.resolve({ method: 'GET', url: `${walk.v.prefix}/export?scope=CHILDREN&format=csv` }),
      rawSuccess: true,
      // A scope the export does not know is INVALID (200), never a 500.
      failure: {
        call: { method: 'GET', url: '/repository-view-context/FEDORA/1/export?scope=EVERYTHING' },
        http: 200,
        status: 'INVALID',
      },
    },
  };
}
