import { createHash } from 'node:crypto';

/** The fields of one stored event that its hash covers, as stored (detail: its JSON text). */
export interface ChainedFields {
  readonly id: number;
  readonly time: string;
  readonly username: string | null;
  readonly action: string;
  readonly repositoryViewId: number | null;
  readonly contextUri: string | null;
  readonly jobId: number | null;
  readonly requestId: string | null;
  readonly outcome: string;
  /** Canonical JSON text (keys sorted), exactly as stored. */
  readonly detail: string;
}

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * SHA-256 over the event's canonical JSON and the previous event's hash (DECISIONS.md §14). The canonical
 * form is a JSON array in a fixed field order, so no key order or whitespace can change it; the id is in
 * it, so moving or removing an event breaks the chain as surely as editing one.
 */
export function chainHash(fields: ChainedFields, previousHash: string): string {
  const canonical = JSON.stringify([
    fields.id,
    fields.time,
    fields.username,
    fields.action,
    fields.repositoryViewId,
    fields.contextUri,
    fields.jobId,
    fields.requestId,
    fields.outcome,
    fields.detail,
    previousHash,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** JSON text with every object's keys sorted (so equal details always store, and hash, the same). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) sorted[key] = sortKeys(item);
    }
    return sorted;
  }
  return value;
}
