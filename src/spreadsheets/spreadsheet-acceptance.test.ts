import { describe } from 'vitest';
import { doneWhen } from '../../test/support/spreadsheets/done-when.js';
import { embeddedSite } from '../../test/support/spreadsheets/sheet-site.js';

/**
 * Issue 29's "Done when" through the API on the embedded repository (a FEDORA view over real HTTP): 200
 * resources exported, 20 cells changed, 5 cleared, a column added, 3 `+` rows; the preview shows exactly
 * that, apply writes it, undo restores everything; a row edited in the repository since the export fails
 * as a conflict. The steps: test/support/spreadsheets/done-when.ts (the same on a Solid server:
 * spreadsheet-css.test.ts).
 */
describe('spreadsheets end to end on the embedded repository (FEDORA, one transaction)', () => {
  doneWhen({ site: () => embeddedSite(), transacts: true });
});
