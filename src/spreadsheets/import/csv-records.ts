import { CsvError, Parser } from 'csv-parse';
import { columnLetter } from '../sheet/sheet-header.js';
import { SpreadsheetInvalidError } from '../spreadsheet.js';

/*
 * A CSV's records, streamed: bytes through a fatal UTF-8 decoder (a file that is not UTF-8 is refused, naming
 * the row of its first bad byte, never read with replacement characters), then csv-parse, one chunk at a
 * time. Strict CSV: every record has the header's number of fields, quotes only around whole values. Each of
 * csv-parse's errors becomes a SpreadsheetInvalidError naming the row (the spreadsheet's own numbering: the
 * header is row 1, and every record is one row, as a spreadsheet program shows it).
 */

/** What a sheet is read from: the text, or its bytes as they arrive (a Node Readable is one). */
export type SheetSource = string | AsyncIterable<Uint8Array | string>;

/**
 * The longest record, in bytes: a quote left open swallows the rest of the sheet into one value, and that
 * must fail before it holds the whole file in memory.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** A string source is fed to the parser in pieces of this many characters. */
const TEXT_PIECE = 64 * 1024;

/** One record and its row number. */
export interface CsvRecord {
  readonly row: number;
  readonly fields: string[];
}

export interface CsvReadOptions {
  /** The largest sheet, in bytes; beyond it the sheet is INVALID. */
  readonly maxBytes: number;
}

/** The records of a CSV in order; throws SpreadsheetInvalidError where the CSV or its encoding is broken. */
export async function* csvRecords(source: SheetSource, options: CsvReadOptions): AsyncGenerator<CsvRecord> {
  const parser = new Parser({ bom: true, max_record_size: MAX_RECORD_BYTES });
  // Errors are read from `parser.errored` right after each write (the parse runs synchronously in it).
  parser.on('error', () => undefined);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let rows = 0;
  let header: readonly string[] | null = null;
  // Writes bytes to the parser and yields the records they complete; then a CSV error, if they made one.
  function* feed(chunk: Uint8Array | null): Generator<CsvRecord> {
    if (chunk === null) parser.end();
    else parser.write(chunk);
    for (
      let record = parser.read() as string[] | null;
      record !== null;
      record = parser.read() as string[] | null
    ) {
      header ??= record;
      yield { row: ++rows, fields: record };
    }
    const failure = parser.errored;
    if (failure !== null) throw csvInvalid(failure, header);
  }

  for await (const piece of bytePieces(source)) {
    bytes += piece.byteLength;
    if (bytes > options.maxBytes) {
      yield* feed(piece.subarray(0, piece.byteLength - (bytes - options.maxBytes)));
      throw new SpreadsheetInvalidError(
        `The sheet is larger than the limit of ${options.maxBytes} bytes (SCRIPTORIUM_SPREADSHEET_MAX_BYTES); it goes over it in this row.`,
        parser.info.records + 1,
      );
    }
    try {
      decoder.decode(piece, { stream: true });
    } catch {
      // Everything before the bad byte is read, so its row is the record in progress.
      yield* feed(piece.subarray(0, validPrefixLength(piece)));
      throw notUtf8(parser.info.records + 1);
    }
    yield* feed(piece);
  }
  try {
    decoder.decode();
  } catch {
    // The last character is cut short.
    throw notUtf8(parser.info.records + 1);
  }
  yield* feed(null);
}

/** The source as UTF-8 bytes; a string in pieces (never splitting a surrogate pair). */
async function* bytePieces(source: SheetSource): AsyncGenerator<Uint8Array> {
  if (typeof source !== 'string') {
    for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    return;
  }
  for (let from = 0; from < source.length;) {
    let to = Math.min(source.length, from + TEXT_PIECE);
    if (to < source.length && isHighSurrogate(source.charCodeAt(to - 1))) to += 1;
    const text = source.slice(from, to);
    // Text posted as JSON can hold a lone surrogate (`"\ud800"`), which is no character at all.
    const lone = text.search(LONE_SURROGATE);
    if (lone >= 0) {
      yield Buffer.from(text.slice(0, lone), 'utf8');
      yield Uint8Array.of(0xff);
      return;
    }
    yield Buffer.from(text, 'utf8');
    from = to;
  }
}

/** A surrogate that is not half of a pair (with the `u` flag, pairs read as one character). */
const LONE_SURROGATE = /\p{Cs}/u;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * How many bytes of `piece` are valid UTF-8 (an incomplete last character counts as valid: the next piece
 * may complete it). Continuation bytes at its start complete a character begun in the previous piece.
 * Validity of a prefix only shrinks as it grows, so a binary search finds the first bad byte.
 */
function validPrefixLength(piece: Uint8Array): number {
  let start = 0;
  while (start < 3 && start < piece.length && ((piece[start] ?? 0) & 0xc0) === 0x80) start++;
  const valid = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(piece.subarray(start, end), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let good = start;
  let bad = piece.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (valid(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

function notUtf8(row: number): SpreadsheetInvalidError {
  return new SpreadsheetInvalidError(
    'The sheet is not UTF-8 text: this row holds a byte that is not. Save the sheet as “CSV UTF-8”.',
    row,
  );
}

/** A field's column as a message names it: its header's text, or its letter when the header has none. */
function columnName(at: number, header: readonly string[] | null): string {
  const text = header?.[at]?.trim() ?? '';
  return text === '' ? columnLetter(at) : text;
}

/** csv-parse's error as INVALID, naming the row (the record that failed) and, where known, the column. */
function csvInvalid(error: Error, header: readonly string[] | null): SpreadsheetInvalidError {
  if (!(error instanceof CsvError))
    return new SpreadsheetInvalidError(`The sheet cannot be read: ${error.message}`);
  const records = typeof error.records === 'number' ? error.records : 0;
  const row = records + 1;
  const column =
    typeof error.column === 'number' ? columnName(error.column, row === 1 ? null : header) : null;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new SpreadsheetInvalidError(
        'A quoted value is unterminated: its opening quote has no closing quote before the end of the sheet.',
        row,
        column,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new SpreadsheetInvalidError(
        'A quoted value has text after its closing quote; inside a quoted value, write a quote as two quotes ("").',
        row,
        column,
      );
    case 'INVALID_OPENING_QUOTE':
      return new SpreadsheetInvalidError(
        'A value has a quote inside unquoted text; quote the whole value and write each quote inside it as two quotes ("").',
        row,
        column,
      );
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const fields: unknown[] = Array.isArray(error.record) ? error.record : [];
      return new SpreadsheetInvalidError(
        fields.length === 1 && fields[0] === ''
          ? 'The row is empty; remove the blank line (a row needs its contextUri).'
          : `The row has ${fields.length} value${fields.length === 1 ? '' : 's'} where the header has ${header?.length ?? 'another number of'} columns; every row needs one value per column.`,
        row,
      );
    }
    case 'CSV_MAX_RECORD_SIZE':
      return new SpreadsheetInvalidError(
        `The row is longer than ${MAX_RECORD_BYTES} bytes; is a quoted value unterminated?`,
        row,
        column,
      );
    // Those of options and column mappings, which this reader does not use.
    case 'CSV_INVALID_ARGUMENT':
    case 'CSV_INVALID_COLUMN_DEFINITION':
    case 'CSV_INVALID_COLUMN_MAPPING':
    case 'CSV_INVALID_OPTION_BOM':
    case 'CSV_INVALID_OPTION_CAST_DATE':
    case 'CSV_INVALID_OPTION_CAST':
    case 'CSV_INVALID_OPTION_COLUMNS':
    case 'CSV_INVALID_OPTION_COMMENT':
    case 'CSV_INVALID_OPTION_DELIMITER':
    case 'CSV_INVALID_OPTION_GROUP_COLUMNS_BY_NAME':
    case 'CSV_INVALID_OPTION_ON_RECORD':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'CSV_OPTION_COLUMNS_MISSING_NAME':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
    case 'CSV_UNKNOWN_ERROR':
      return new SpreadsheetInvalidError(`The row cannot be read as CSV: ${error.message}`, row, column);
  }
}
