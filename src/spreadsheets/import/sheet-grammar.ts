import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import type { Schema } from '../../schemas/schema.js';
import { CellError, DatatypePrefixes, decodeCell, unguardFormula } from '../sheet/cell-codec.js';
import { parseHeader } from '../sheet/sheet-header.js';
import { SpreadsheetInvalidError } from '../spreadsheet.js';
import type { SheetGrammar } from './sheet-reader.js';

/**
 * The grammar a view's sheets are read with (DECISIONS.md §13): headers name the view's metadata predicates
 * through its schemas' abbreviations, typed literals their datatypes through those and `xsd:`/`rdf:`.
 */
export function viewSheetGrammar(schemas: readonly Schema[]): SheetGrammar {
  const naming = new FieldNaming(schemas);
  const prefixes = new DatatypePrefixes(schemas);
  return {
    header: (cells) => parseHeader(cells, naming),
    unguard: unguardFormula,
    checkCell: (text, column) => {
      try {
        decodeCell(text, column, prefixes);
      } catch (error) {
        if (error instanceof CellError) throw new SpreadsheetInvalidError(error.message);
        throw error;
      }
    },
  };
}
