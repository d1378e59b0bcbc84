import type { CurrentView, RouteCases } from './envelope.js';

/**
 * The route walk's case for GET /audit/premis: PREMIS XML (not an envelope, the headers still) for the
 * test's view; an unknown format is INVALID in an envelope (checked before the view, so any id does).
 */
export function premisCases(walk: CurrentView): Record<string, RouteCases> {
  return {
    'GET /audit/premis': {
      success: () =>
        Promise.resolve({ method: 'GET', url: `/audit/premis?repositoryViewId=${walk.v.viewId}` }),
      rawSuccess: true,
      failure: {
        call: { method: 'GET', url: '/audit/premis?repositoryViewId=1&format=json' },
        http: 200,
        status: 'INVALID',
      },
    },
  };
}
