import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/roles.js';
import { checkBody } from '../shared/body-check.js';
import { BadRequestError } from '../shared/errors.js';
import type { CurationJob } from './curation-job.js';
import { CurationJobBody } from './curation-job.schema.js';
import type { CurationJobService } from './curation-job.service.js';

/*
 * `POST /curation-job` as multipart/form-data (DECISIONS.md §13): a SPREADSHEET job whose sheet is uploaded
 * as the part `file`, its other properties as form fields before it. The file is handed to the service as
 * it arrives, never buffered whole.
 */

/** Form fields and parts one request may have (the file's size is the route's spreadsheet limit). */
export const MULTIPART_LIMITS = { files: 1, fields: 10, fieldSize: 8 * 1024, parts: 11 } as const;

/**
 * The job the form asks for: its fields read as the JSON body's properties (`kind` SPREADSHEET unless a
 * field says otherwise), checked by the same schema, and the file streamed into the service.
 */
export async function createFromUpload(
  request: FastifyRequest,
  jobs: CurationJobService,
  caller: Principal,
): Promise<CurationJob> {
  const fields: Record<string, unknown> = { kind: 'SPREADSHEET' };
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      // Never a value cut short at the limit (a sheet sent as a field would be read half).
      if (part.valueTruncated)
        throw new BadRequestError(
          `The form field ${part.fieldname} is longer than ${MULTIPART_LIMITS.fieldSize} bytes; send the sheet as the part file`,
        );
      if (typeof part.value === 'string') fields[part.fieldname] = fieldValue(part.fieldname, part.value);
      continue;
    }
    try {
      if (part.fieldname !== 'file')
        throw new BadRequestError(`The file part must be named file, not ${part.fieldname}`);
      return await jobs.create(checkBody(CurationJobBody, fields), caller, part.file);
    } finally {
      // What the service did not read (a request refused before its sheet) is let through and dropped.
      part.file.resume();
    }
  }
  // No file: the service says what a SPREADSHEET job requires.
  return jobs.create(checkBody(CurationJobBody, fields), caller);
}

/** A form field as the JSON property it stands for: numbers and booleans from their text. */
function fieldValue(name: string, text: string): unknown {
  if (name === 'repositoryViewId' && /^\d{1,15}$/u.test(text)) return Number(text);
  if (name === 'dryRun' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
