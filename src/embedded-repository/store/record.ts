import type { RepoResourceRow } from './repository.table.js';

export type ResourceKind = 'container' | 'binary';

export interface BinaryInfo {
  readonly mimeType: string;
  readonly filename: string | null;
  readonly size: number;
  /** Hex digests of the stored bytes; sha512 also names the content file. */
  readonly sha512: string;
  readonly sha256: string;
}

/** One repository resource as stored: its place, user triples, server-managed facts and binary facts. */
export interface ResourceRecord {
  readonly path: string;
  readonly parent: string | null;
  readonly kind: ResourceKind;
  /** User triples as N-Triples with repository IRIs in `info:fedora/` form. */
  readonly triples: string;
  readonly created: number;
  readonly createdBy: string;
  readonly lastModified: number;
  readonly lastModifiedBy: string;
  readonly revision: number;
  readonly binary: BinaryInfo | null;
}

export function fromRow(row: RepoResourceRow): ResourceRecord {
  const kind: ResourceKind = row.kind === 'binary' ? 'binary' : 'container';
  return {
    path: row.path,
    parent: row.parent,
    kind,
    triples: row.triples,
    created: row.created,
    createdBy: row.created_by,
    lastModified: row.last_modified,
    lastModifiedBy: row.last_modified_by,
    revision: row.revision,
    binary:
      kind === 'binary' && row.sha512 !== null && row.sha256 !== null
        ? {
            mimeType: row.mime_type ?? 'application/octet-stream',
            filename: row.filename,
            size: row.size ?? 0,
            sha512: row.sha512,
            sha256: row.sha256,
          }
        : null,
  };
}

export function toRow(record: ResourceRecord): RepoResourceRow {
  return {
    path: record.path,
    parent: record.parent,
    kind: record.kind,
    triples: record.triples,
    created: record.created,
    created_by: record.createdBy,
    last_modified: record.lastModified,
    last_modified_by: record.lastModifiedBy,
    revision: record.revision,
    mime_type: record.binary?.mimeType ?? null,
    filename: record.binary?.filename ?? null,
    size: record.binary?.size ?? null,
    sha512: record.binary?.sha512 ?? null,
    sha256: record.binary?.sha256 ?? null,
  };
}

export function recordToJson(record: ResourceRecord): string {
  return JSON.stringify(toRow(record));
}

export function recordFromJson(json: string): ResourceRecord {
  return fromRow(JSON.parse(json) as RepoResourceRow);
}
