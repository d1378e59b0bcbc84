import { inject } from 'vitest';
import { describeRepositoryAdapter } from './repository-adapter.contract.js';

/**
 * The adapter contract for the LDP kind, against the Community Solid Server 7.2 that
 * `css-global-setup.ts` starts once per test run (memory backend, allow-all). CSS does not check HTTP
 * Basic credentials, so the wrong-credentials check runs against a stub that refuses every request.
 */
describeRepositoryAdapter('LDP adapter against Community Solid Server 7.2', {
  kind: 'LDP',
  // CSS links an `.acl` (rel="acl") and has no Fedora root: no Fedora line.
  detects: 'LDP',
  start() {
    const rootUri = inject('cssBaseUrl');
    return Promise.resolve({
      view: { rootUri, username: null, password: null },
      close: () => Promise.resolve(),
    });
  },
});
