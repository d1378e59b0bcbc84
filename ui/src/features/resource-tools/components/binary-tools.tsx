import type { ResourceRef } from '../../../api/context-uri';
import type { Context } from '../../../api/context-types';

/**
 * STUB (helper C): on a container, `Upload file` (progress bar, drag-and-drop); on a binary, download
 * and `Check fixity` (a dialog with the report).
 */
export function BinaryTools(_props: { resource: ResourceRef; context: Context }) {
  return null;
}
