import { describe, inject } from 'vitest';
import { doneWhen } from '../../test/support/spreadsheets/done-when.js';
import { solidSite } from '../../test/support/spreadsheets/sheet-site.js';

/**
 * Issue 29's "Done when" through the API on a real Community Solid Server (an LDP view: no transactions,
 * each resource written with If-Match): the same steps as on the embedded repository
 * (test/support/spreadsheets/done-when.ts).
 */
describe('spreadsheets end to end on a Community Solid Server (LDP, If-Match per resource)', () => {
  doneWhen({
    site: () => solidSite(inject('cssBaseUrl')),
    transacts: false,
    // CSS stamps every resource with dcterms:modified; a view with the dcterms schema exports it.
    repositoryColumns: ['dcterms:modified'],
  });
});
