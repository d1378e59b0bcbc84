import { ApiError } from '../../api/errors';

/** The envelope's message when an INVALID answer says nothing more specific (src/http/envelope.ts). */
const GENERIC_INVALID = 'Your request failed validation';

/**
 * What a refused upload says about the sheet, each text once: the ValidationResults' messages (each names
 * the row and column, e.g. "Row 7, column dcterms:title[en]: the quoted value is not terminated") and the
 * envelope's message unless it is only the generic one. Empty when the error is not an INVALID answer.
 */
export function sheetProblems(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.kind !== 'INVALID') return [];
  const texts = Object.values(error.fieldMessages).flatMap((messages) => Object.values(messages));
  if (error.message !== GENERIC_INVALID || texts.length === 0) texts.unshift(error.message);
  return [...new Set(texts.map((text) => text.trim()).filter((text) => text !== ''))];
}
