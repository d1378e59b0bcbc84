import { VersionedCache, type DataVersion } from '../db/data-version.js';
import { RepositoryHttpClient } from '../repository-adapters/repository-http-client.js';
import type { RepositoryViewContext } from './context-builder.js';

export interface RenderCacheLimits {
  /** Contexts kept at most. Default 256. */
  readonly maxEntries?: number;
  /** Their estimated total size in bytes (`estimatedBytes`). Default 32 MiB. */
  readonly maxBytes?: number;
}

export const DEFAULT_RENDER_CACHE_ENTRIES = 256;
export const DEFAULT_RENDER_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Built contexts of views this process answers itself (issue 10): a render of the embedded repository
 * is a GET and an `fcr:versions` through the in-process `/rest`, two Turtle round trips and the build,
 * while nothing it shows can change without a write to this database. So a context is kept per
 * (adapter instance, metadata prefixes, context IRI) while the database's data-version token stays
 * what it was before the render read it; any write anywhere — through the context API, straight to
 * `/rest`, a transaction's commit or rollback, the reaper, another instance on the same database —
 * moves the token and drops every kept context at once (`VersionedCache`).
 *
 * Only where that signal covers the repository's tables (`DataVersion.watchesRepository`), and only for
 * views answered in process: a remote repository (CSS, a real Fedora) tells us nothing when it changes.
 * The adapter instance is part of the key because a new view configuration (root, credentials) gets a
 * new adapter; the caller checks the user's permission (opening the view) before asking here.
 */
export class RenderCache {
  private readonly kept: VersionedCache<string, RepositoryViewContext>;
  private readonly adapterIds = new WeakMap<object, number>();
  private nextAdapterId = 0;

  constructor(version: DataVersion, limits: RenderCacheLimits = {}) {
    this.kept = new VersionedCache<string, RepositoryViewContext>(
      version,
      limits.maxEntries ?? DEFAULT_RENDER_CACHE_ENTRIES,
      {
        maxSize: limits.maxBytes ?? DEFAULT_RENDER_CACHE_BYTES,
        sizeOf: estimatedBytes,
      },
    );
  }

  /** Contexts kept now (tests). */
  get size(): number {
    return this.kept.size;
  }

  /** Their estimated size in bytes (tests). */
  get keptBytes(): number {
    return this.kept.keptSize;
  }

  /** Whether renders of this adapter may be kept: its requests are answered by this process's `/rest`. */
  static covers(adapter: object): boolean {
    // The adapters keep their client as `client`; anything else (a stub, a future kind) is not kept.
    const client = (adapter as { readonly client?: unknown }).client;
    return client instanceof RepositoryHttpClient && client.inProcess;
  }

  render(
    adapter: object,
    metadataPrefixes: readonly string[],
    contextUri: string,
    build: () => Promise<RepositoryViewContext>,
  ): Promise<RepositoryViewContext> {
    return this.kept.get(`${String(this.idOf(adapter))} ${metadataPrefixes.join(' ')}\n${contextUri}`, build);
  }

  private idOf(adapter: object): number {
    let id = this.adapterIds.get(adapter);
    if (id === undefined) {
      id = this.nextAdapterId++;
      this.adapterIds.set(adapter, id);
    }
    return id;
  }
}

/**
 * A rough size of a context in memory: two bytes per string character plus a fixed cost per value,
 * found by one walk (cheaper than serialising it; it only has to be proportional). The walk stops once
 * the count passes `limit`: a context too large to keep (one of 100 000 children) is not walked whole only
 * to be refused.
 */
export function estimatedBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  const count = { total: 0 };
  addSize(value, limit, count);
  return count.total;
}

function addSize(value: unknown, limit: number, count: { total: number }): void {
  if (typeof value === 'string') count.total += 16 + 2 * value.length;
  else if (value === null || typeof value !== 'object') count.total += 8;
  else {
    count.total += 32;
    for (const item of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) {
      if (count.total > limit) return;
      addSize(item, limit, count);
    }
  }
}
