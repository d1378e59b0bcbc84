import type { RouteCases } from './envelope.js';

/**
 * The route walk's cases for the audit trail (DECISIONS.md §14): reading it succeeds for the administrator;
 * a bad filter is an INVALID (200), and verifying without credentials is refused.
 */
export function auditCases(): Record<string, RouteCases> {
  return {
    'GET /audit': {
      success: () => Promise.resolve({ method: 'GET', url: '/audit?limit=10' }),
      failure: { call: { method: 'GET', url: '/audit?from=yesterday' }, http: 200, status: 'INVALID' },
    },
    'GET /audit/verify': {
      success: () => Promise.resolve({ method: 'GET', url: '/audit/verify' }),
      failure: {
        call: { method: 'GET', url: '/audit/verify', token: null },
        http: 401,
        status: 'UNAUTHORIZED',
      },
    },
  };
}
