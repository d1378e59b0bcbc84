// Type-aware lint: the promise rules matter most for a server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': 'error',
    },
  },
  {
    // Layering (issue 9, docs/architecture.md): domain, storage and adapter code stays free of HTTP and of
    // the web framework, so it can be tested and reused without a server. Everything under src/ is held to
    // this except the HTTP layer itself (src/http/, *.routes.ts, *.api.ts), the composition root, the test
    // support and the few auth modules that are Fastify plugins by nature.
    files: ['src/**/*.ts'],
    ignores: [
      'src/http/**',
      'src/**/*.routes.ts',
      'src/**/*.api.ts',
      'src/repository-view-context/context-route-support.ts',
      'src/**/*.test.ts',
      // Modules only tests import (fixtures, helpers, case tables split out of a test file).
      'src/**/*.support.ts',
      'src/app.ts',
      'src/test-support/**',
      'src/auth/attempt-purge.ts',
      'src/auth/login-rate-limit.ts',
      'src/auth/rate-limit-store.ts',
      'src/auth/token-authorizer.ts',
      // The embedded repository's HTTP layer (its plugin and handlers). Everything else in it (store,
      // binaries, RDF, SPARQL) refuses in domain terms and is held to the rule.
      'src/embedded-repository/http/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'fastify', message: 'Domain and storage code stays free of the web framework.' }],
          patterns: [
            { group: ['@fastify/*'], message: 'Domain and storage code stays free of the web framework.' },
            {
              // linked-data/http/ is the framework-free protocol core (header codecs), shared by all.
              regex: '(^|/)(?<!linked-data/)http/',
              message:
                'Domain and storage code may not import the HTTP layer; move the shared type out of it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.support.ts', 'src/test-support/**', 'bench/**', 'test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  prettier,
);
