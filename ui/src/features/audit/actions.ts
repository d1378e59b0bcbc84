/**
 * What the workbench says about an audit event (DECISIONS.md §14): a human label per action, the
 * metadata diff a detail holds, whether a curator may revert it, and a one-line summary for the Activity
 * table. Details are read defensively: the ledger keeps whatever a recorder wrote.
 */

/** The action names, grouped as the Activity filter offers them (the service's AUDIT_ACTIONS). */
export const ACTION_GROUPS: readonly { group: string; actions: readonly (readonly [string, string])[] }[] = [
  {
    group: 'Resources',
    actions: [
      ['resource.create', 'Created'],
      ['metadata.update', 'Metadata changed'],
      ['metadata.revert', 'Change reverted'],
      ['binary.upload', 'File uploaded'],
      ['resource.delete', 'Deleted'],
      ['version.create', 'Version created'],
      ['version.restore', 'Version restored'],
      ['version.delete', 'Version deleted'],
      ['transaction.commit', 'Transaction committed'],
      ['transaction.rollback', 'Transaction rolled back'],
      ['fixity.check', 'Fixity checked'],
    ],
  },
  {
    group: 'Curation jobs',
    actions: [
      ['job.apply', 'Changed by a curation job'],
      ['job.undo', 'Curation job undone'],
    ],
  },
  {
    group: 'Configuration',
    actions: [
      ['repository-view.create', 'Repository view created'],
      ['repository-view.update', 'Repository view changed'],
      ['repository-view.delete', 'Repository view deleted'],
      ['schema.create', 'Schema created'],
      ['schema.update', 'Schema changed'],
      ['schema.delete', 'Schema deleted'],
      ['user.create', 'User created'],
      ['user.update', 'User changed'],
      ['user.delete', 'User deleted'],
      ['user.password', 'Password changed'],
      ['operator.create', 'Operator created'],
      ['operator.update', 'Operator changed'],
      ['operator.delete', 'Operator deleted'],
      ['internal-metadata.create', 'Internal metadata created'],
      ['internal-metadata.update', 'Internal metadata changed'],
      ['internal-metadata.delete', 'Internal metadata deleted'],
    ],
  },
  { group: 'Sign-in', actions: [['auth.login', 'Sign-in failed']] },
];

const LABELS = new Map(ACTION_GROUPS.flatMap((group) => group.actions));

/** "Metadata changed" for `metadata.update`; an action the workbench does not know is shown as named. */
export const actionLabel = (action: string): string => LABELS.get(action) ?? action;

/** The actions whose detail is a metadata diff (`removed`/`added` N-Triples lines). */
const METADATA_ACTIONS = new Set([
  'resource.create',
  'metadata.update',
  'metadata.revert',
  'version.restore',
  'job.apply',
  'job.undo',
  'resource.delete',
]);

/** The single metadata changes a curator may revert (a new change; the service refuses a stale one). */
const REVERTIBLE_ACTIONS = new Set(['metadata.update', 'metadata.revert', 'job.apply', 'job.undo']);

export interface MetadataDiff {
  readonly removed: readonly string[];
  readonly added: readonly string[];
}

const lines = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((line) => typeof line === 'string') ? value : undefined;

/** The removed and added triples of a metadata event, or undefined when its detail holds none. */
export function metadataDiffOf(event: { action: string; detail: unknown }): MetadataDiff | undefined {
  if (!METADATA_ACTIONS.has(event.action)) return undefined;
  const detail = asRecord(event.detail);
  const removed = lines(detail.removed);
  const added = lines(detail.added);
  if (removed === undefined && added === undefined) return undefined;
  return { removed: removed ?? [], added: added ?? [] };
}

/** Whether `Revert this change` is offered: a successful single metadata change with a diff. */
export function isRevertible(event: { action: string; outcome: string; detail: unknown }): boolean {
  if (!REVERTIBLE_ACTIONS.has(event.action) || event.outcome !== 'SUCCESS') return false;
  const diff = metadataDiffOf(event);
  return diff !== undefined && diff.removed.length + diff.added.length > 0;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The detail in a few words: "1 removed, 1 added", "scan.tif, 2,048 bytes", "fields: name, rootUri". */
export function detailSummary(event: { action: string; detail: unknown }): string {
  const diff = metadataDiffOf(event);
  if (diff !== undefined)
    return `${count(diff.removed.length, 'triple removed', 'triples removed')}, ${count(diff.added.length, 'added', 'added')}`;
  const detail = asRecord(event.detail);
  const parts: string[] = [];
  switch (event.action) {
    case 'binary.upload':
      parts.push(
        text(detail.filename) ?? '',
        typeof detail.size === 'number' ? count(detail.size, 'byte', 'bytes') : '',
      );
      break;
    case 'version.create':
    case 'version.delete':
      parts.push(text(detail.label) ?? text(detail.version) ?? '');
      break;
    case 'transaction.commit':
    case 'transaction.rollback':
      if (typeof detail.events === 'number') parts.push(count(detail.events, 'change', 'changes'));
      break;
    case 'fixity.check':
      parts.push(text(detail.status) ?? '');
      break;
    case 'auth.login':
      parts.push(text(detail.reason) ?? '');
      break;
    default: {
      parts.push(text(detail.name) ?? '');
      const fields = Object.keys(asRecord(detail.fields));
      if (fields.length > 0) parts.push(`fields: ${fields.join(', ')}`);
    }
  }
  return parts.filter((part) => part !== '').join(', ');
}
