// Type-aware lint: the promise rules matter most for a server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.bench-build/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'eslint.config.js',
      // Generated (npm run gen:api; the router plugin): never edited, never linted.
      'ui/src/**/*.gen.ts',
    ],
  },
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
    // this except the HTTP layer itself (src/http/, *.routes.ts, *.api.ts), the composition root, the tests
    // and the few auth modules that are Fastify plugins by nature.
    files: ['src/**/*.ts'],
    ignores: [
      'src/http/**',
      'src/**/*.routes.ts',
      'src/**/*.api.ts',
      'src/repository-view-context/context-route-shared.ts',
      'src/**/*.test.ts',
      'src/app.ts',
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
    files: ['**/*.test.ts', 'bench/**', 'test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  {
    // The workbench (ui/, DECISIONS.md §11): hooks rules, accessible markup, TanStack Query's own rules.
    files: ['ui/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: {
      ...jsxA11y.flatConfigs.recommended.plugins,
      'react-hooks': reactHooks,
      '@tanstack/query': pluginQuery,
    },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@tanstack/query/exhaustive-deps': 'error',
      '@tanstack/query/prefer-query-options': 'error',
      '@tanstack/query/no-rest-destructuring': 'error',
      // JSX handlers: `onClick={() => setOpen(false)}` and async handlers are the idiom.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // ensureQueryData is the loader idiom DECISIONS §11's anchors use; its successor is not equivalent.
      '@typescript-eslint/no-deprecated': 'off',
      // Route modules export `Route` objects built from functions the router calls; TanStack's loaders
      // return promises on purpose.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: 'Redirect' }] },
      ],
    },
  },
  {
    files: ['ui/e2e/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
