import { counted, resourceEntry } from './audit-entries.js';
import { sendOptions, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';

// Tombstones (fcr:tombstone): what a deleted resource leaves; it can only be purged.

/** DELETE fcr:tombstone purges it, so the path can be used again; outside transactions only. */
export async function tombstone(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  method: string,
): Promise<unknown> {
  const tomb = await deps.store.tombstone(path);
  if (tomb === undefined) throw RepositoryError.notFound('No tombstone at this path');
  if (method === 'OPTIONS') return sendOptions(ctx, 'DELETE, OPTIONS', false);
  if (method !== 'DELETE')
    throw RepositoryError.notAllowed('A tombstone can only be deleted (purged)', 'DELETE, OPTIONS');
  if (ctx.txId !== null)
    throw RepositoryError.badRequest('Tombstones cannot be purged inside a transaction', true);
  const entry = resourceEntry(ctx.who, 'resource.delete', path, { tombstone: true });
  await deps.store.apply([{ op: 'purgeTombstone', path }], ctx.now, [entry]);
  counted(ctx.who, [entry]);
  return ctx.reply.code(204).send();
}
