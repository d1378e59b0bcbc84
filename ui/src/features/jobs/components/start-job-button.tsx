import type { ResourceRef } from '../../../api/context-uri';

/** STUB (helper D): opens the new-job screen for this container (mapping or fixity, scope, operators). */
export function StartJobButton(_props: { resource: ResourceRef }) {
  return null;
}
