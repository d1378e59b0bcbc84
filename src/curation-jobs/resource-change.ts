import type { Quad } from '@rdfjs/types';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { toWireTriple } from '../repository-view-context/triple-format.js';
import { NEW_CHILD } from '../spreadsheets/spreadsheet.js';
import type { StoredItem } from './curation-job-items.store.js';
import type { ResourceChange } from './curation-job.js';
import { decodeTriples } from './stored-triples.js';
import { pureRemovals } from './work/metadata-document.js';
import { isNewChildKey } from './work/job-work.js';

/**
 * A stored item as the interface's ResourceChange (documented keys first, then the added ones). A
 * SPREADSHEET row that creates a child (stored under its key `+N`) is shown as the resource its apply
 * created, or as `+` until then, its triples' subject the same.
 */
export function toResourceChange(item: StoredItem): ResourceChange {
  const creates = isNewChildKey(item.contextUri);
  const contextUri = creates ? (item.createdUri ?? NEW_CHILD) : item.contextUri;
  const shown = (quads: Quad[]) =>
    creates ? quads.map((q) => quad(namedNode(contextUri), q.predicate, q.object)) : quads;
  const removed = shown(decodeTriples(item.removed));
  const added = shown(decodeTriples(item.added));
  return {
    contextUri,
    removed: removed.map(toWireTriple),
    added: added.map(toWireTriple),
    error: item.error,
    warnings: item.warnings === null ? [] : (JSON.parse(item.warnings) as string[]),
    removals: pureRemovals(removed, added).map(toWireTriple),
    row: item.row,
  };
}
