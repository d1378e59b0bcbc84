import type { ResourceRef } from '../../../api/context-uri';
import type { Context } from '../../../api/context-types';

/** STUB (helper C): the `Versions` region: list, `Create version`, restore and delete (asks first). */
export function VersionsSection(_props: { resource: ResourceRef; context: Context }) {
  return null;
}
