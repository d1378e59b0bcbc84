import { SCOPE_REQUIRED, type CurationJobBody } from '../../curation-jobs/curation-job.schema.js';
import type { CurationJobStore, JobRecord, NewCurationJob } from '../../curation-jobs/curation-job.store.js';
import type { Schema } from '../../schemas/schema.js';
import type { CheckedBody } from '../../shared/body-check.js';
import { ValidationFailedError } from '../../shared/errors.js';
import type { ValidationCollector } from '../../shared/validation.js';
import { SpreadsheetInvalidError, type SpreadsheetSummary } from '../spreadsheet.js';
import type { SheetSource } from './csv-records.js';
import { viewSheetGrammar } from './sheet-grammar.js';
import { readSheet, type SheetLimits } from './sheet-reader.js';
import type { SpreadsheetStore } from './spreadsheet.store.js';

/*
 * Creating a SPREADSHEET curation job (DECISIONS.md §13): what the request must hold for this kind, then the
 * sheet read and checked whole while it is staged, and the job created naming it. A sheet that does not read
 * is INVALID under the field it came in (`spreadsheet` for CSV text, `file` for an upload), naming its row and
 * column, and nothing of it stays staged.
 */

/** The sheet of a request, and the field it came in (the field its INVALID is reported under). */
export interface SheetUpload {
  readonly field: 'spreadsheet' | 'file';
  readonly source: SheetSource;
}

/**
 * The request's sheet checked against its kind: a SPREADSHEET job has exactly one sheet (CSV text or an
 * uploaded file), no operators, and no scope but SUBTREE (its rows are its resources); every other kind
 * requires a scope and takes no sheet. Failures go to the body's collector; answers the sheet of a
 * SPREADSHEET request that has one.
 */
export function sheetOfRequest(
  body: CheckedBody<CurationJobBody>,
  file: SheetSource | undefined,
): SheetUpload | undefined {
  const { collector } = body;
  const kind = body.get('kind');
  const text = body.get('spreadsheet') ?? undefined;
  if (kind !== 'SPREADSHEET') {
    if (body.passed('scope') && body.get('scope') === undefined)
      collector.add('scope', 'required', SCOPE_REQUIRED);
    if (text !== undefined)
      collector.add('spreadsheet', 'type', 'Only a SPREADSHEET job takes a spreadsheet');
    if (file !== undefined)
      collector.add('file', 'type', 'Only a SPREADSHEET job takes a file; send the other kinds as JSON');
    return undefined;
  }
  if ((body.get('operators') ?? []).length > 0)
    collector.add('operators', 'type', 'A SPREADSHEET job takes no operators: its sheet says what changes');
  const scope = body.get('scope');
  if (scope !== undefined && scope !== 'SUBTREE')
    collector.add(
      'scope',
      'type',
      `A SPREADSHEET job's resources are its sheet's rows (anywhere in the view; + rows become children of contextUri): leave its scope out, not ${scope}`,
    );
  if (text !== undefined && file !== undefined)
    collector.add(
      'spreadsheet',
      'type',
      'Send the sheet once: as spreadsheet (CSV text) or as the file part',
    );
  else if (file !== undefined) return { field: 'file', source: file };
  else if (text !== undefined) return { field: 'spreadsheet', source: text };
  else if (body.passed('spreadsheet'))
    collector.add(
      'spreadsheet',
      'required',
      'A SPREADSHEET job requires its sheet: spreadsheet (CSV text) or a multipart file part',
    );
  return undefined;
}

export interface SpreadsheetImportDependencies {
  readonly store: SpreadsheetStore;
  /** Where the job naming a staged sheet is created. */
  readonly jobs: Pick<CurationJobStore, 'create'>;
  readonly limits: SheetLimits;
  readonly now?: () => number;
}

/** A staged sheet: its id and what its job says of it. */
export interface StagedSheet {
  readonly id: number;
  readonly summary: SpreadsheetSummary;
}

/** Stages sheets for SPREADSHEET jobs and creates the jobs that name them. */
export class SpreadsheetImport {
  private readonly now: () => number;

  constructor(private readonly deps: SpreadsheetImportDependencies) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Reads, checks and stages the sheet, then creates the job naming it. An invalid sheet is
   * discarded and answered INVALID under its field; so is the sheet of a job that could not be created.
   */
  async createJob(
    job: NewCurationJob,
    schemas: readonly Schema[],
    upload: SheetUpload,
    collector: ValidationCollector,
  ): Promise<JobRecord> {
    let staged: StagedSheet;
    try {
      staged = await this.stage(upload.source, job.repositoryViewId, schemas, job.createdBy);
    } catch (error) {
      if (!(error instanceof SpreadsheetInvalidError)) throw error;
      collector.add(upload.field, 'pattern', error.message);
      throw new ValidationFailedError(collector.results());
    }
    try {
      return await this.deps.jobs.create({ ...job, spreadsheet: staged });
    } catch (error) {
      await this.deps.store.discard(staged.id);
      throw error;
    }
  }

  /** Reads the sheet as it arrives, staging its rows batch by batch; discards what it staged when it fails. */
  async stage(
    source: SheetSource,
    repositoryViewId: number,
    schemas: readonly Schema[],
    createdBy: number,
  ): Promise<StagedSheet> {
    const { store, limits } = this.deps;
    const reading = await readSheet(source, viewSheetGrammar(schemas), limits);
    const columns = reading.header.columns;
    const id = await store.create({ repositoryViewId, createdBy, created: this.now(), columns });
    let rows = 0;
    try {
      for await (const batch of reading.batches) {
        await store.stageRows(id, batch);
        rows += batch.length;
      }
      await store.finish(id, rows);
    } catch (error) {
      await store.discard(id);
      throw error;
    }
    return { id, summary: { rows, columns: columns.map((column) => column.header) } };
  }

  /** Sheets no job names, older than `ageMs` (an upload cut off by a crash): purged at start-up. */
  purgeOrphans(ageMs: number): Promise<number> {
    return this.deps.store.purgeOrphans(this.now() - ageMs);
  }
}
