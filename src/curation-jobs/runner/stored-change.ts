import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { StoredItem } from '../curation-job-items.store.js';
import { decodeTriples } from '../stored-triples.js';
import { isNewChildKey, type StoredChange } from '../work/job-work.js';

/**
 * A stored item as the change a write phase makes: APPLY its change, UNDO the inverse. A SPREADSHEET `+`
 * row (key `+N`) creates a child of `parentUri` (the job's context) on APPLY, and its UNDO deletes the
 * resource the apply created, while its metadata is still as the apply left it.
 */
export function storedChangeOf(item: StoredItem, phase: 'APPLY' | 'UNDO', parentUri: string): StoredChange {
  // Being written when an earlier attempt stopped (LDP): checked before it is written again.
  const uncertain = item.writeState === 'WRITING' || item.writeState === 'RESTORING';
  if (isNewChildKey(item.contextUri)) {
    const added = decodeTriples(item.added);
    if (phase === 'APPLY')
      return {
        contextUri: item.contextUri,
        etag: null,
        remove: [],
        add: added,
        uncertain,
        create: { parentUri, createdUri: item.createdUri },
      };
    const created = item.createdUri;
    // Applied without a resource on record cannot happen (it is recorded before the item is marked); were
    // it so, there is nothing to delete: an empty change, which is skipped.
    if (created === null) return { contextUri: item.contextUri, etag: null, remove: [], add: [] };
    const remove = added.map((q) => quad(namedNode(created), q.predicate, q.object));
    // The snapshot taken right after creation, when the apply recorded one (else `remove` is compared).
    const createdState = item.createdState === null ? undefined : decodeTriples(item.createdState);
    return {
      contextUri: created,
      etag: null,
      remove,
      add: [],
      uncertain,
      deleteCreated: true,
      ...(createdState !== undefined && { createdState }),
    };
  }
  const [remove, add] = phase === 'APPLY' ? [item.removed, item.added] : [item.added, item.removed];
  return {
    contextUri: item.contextUri,
    etag: phase === 'APPLY' ? item.etag : null,
    remove: decodeTriples(remove),
    add: decodeTriples(add),
    uncertain,
  };
}
