// Issue 27: the build holds no test code. Test helpers live under test/ (the build compiles src/ only and
// leaves out the test files beside the code by their suffix), so a module under src/ that is not a test
// must never reach into test/ or import the test framework: the build would then carry it, or break.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const TEST = join(ROOT, 'test');
const IMPORT = /\b(?:from|import)\s*\(?\s*'([^']+)'/g;
const TEST_FRAMEWORKS = new Set(['vitest', 'playwright-core', '@axe-core/playwright']);

function productionFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(SRC, name));
}

/** The imports in a production file's text that belong to tests: a path into test/ or a test framework. */
function testImportsIn(file: string, text: string): string[] {
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1]!)
    .filter((specifier) =>
      specifier.startsWith('.')
        ? resolve(dirname(file), specifier).startsWith(TEST + '/')
        : TEST_FRAMEWORKS.has(
            specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/'),
          ),
    );
}

describe('the build boundary', () => {
  it('no production module under src/ imports test code or a test framework', () => {
    const offenders = productionFiles().flatMap((file) =>
      testImportsIn(file, readFileSync(file, 'utf8')).map(
        (specifier) => `${relative(ROOT, file)} → ${specifier}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('no test helper is left under src/ (helpers live under test/, excluded from the build by folder)', () => {
    const helpers = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) =>
      /(^|\/)test-support(\/|$)|\.(test-)?support\.ts$/.test(name),
    );
    expect(helpers).toEqual([]);
  });

  it('the build configuration leaves out only the test files beside the code', () => {
    const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
      include: string[];
      exclude: string[];
    };
    expect(build.include).toEqual(['src']);
    expect(build.exclude).toEqual(['src/**/*.test.ts']);
  });

  it('detects an offending import (the check itself can fail)', () => {
    const specimen = [
      `import { x } from '../test/support/test-app.js';`,
      `import { it } from 'vitest';`,
      `import { ok } from './shared/errors.js';`,
    ].join('\n');
    expect(testImportsIn(join(SRC, 'sample.ts'), specimen)).toEqual([
      '../test/support/test-app.js',
      'vitest',
    ]);
  });
});
