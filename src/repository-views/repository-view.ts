import type { RepositoryKind } from '../repositories/repository-adapter.js';

/** A named connection to an external repository (interface §2 RepositoryView). */
export interface RepositoryView {
  readonly id: number;
  readonly type: RepositoryKind;
  readonly name: string;
  readonly rootUri: string;
  readonly username: string | null;
  /** Whether a password is stored; the password itself is write-only (DECISIONS.md §6). */
  readonly hasPassword: boolean;
  readonly schemaIds: readonly number[];
  readonly curatorIds: readonly number[];
}

export const ENTITY = 'RepositoryView';

export const REPOSITORY_KINDS: readonly RepositoryKind[] = ['FEDORA', 'LDP'];

export function isRepositoryKind(value: unknown): value is RepositoryKind {
  return REPOSITORY_KINDS.some((kind) => kind === value);
}

/** `GET /repository-view/types` (DECISIONS.md §6), in that order. */
export const REPOSITORY_VIEW_TYPES = [
  {
    value: 'FEDORA',
    gloss: 'Fedora',
    versioning: true,
    verifying: true,
    transacting: true,
    queryable: true,
    fixity: true,
  },
  {
    value: 'LDP',
    gloss: 'Linked Data Platform',
    versioning: false,
    verifying: true,
    transacting: false,
    queryable: true,
    fixity: false,
  },
] as const;

/** What a change to a view's password means: keep the stored one, clear it, or set a new one. */
export type PasswordChange = { kind: 'keep' } | { kind: 'clear' } | { kind: 'set'; value: string };
