import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesSource, API_TYPES_FILE } from './api-types.js';

describe('the workbench API types', () => {
  it('match the routes: run `npm run gen:api` after changing a route schema', async () => {
    const committed = fs.readFileSync(API_TYPES_FILE, 'utf8');
    expect(await apiTypesSource()).toBe(committed);
  }, 60_000);
});
