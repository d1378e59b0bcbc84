import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import { REPOSITORY_KIND_DECLARATIONS, featuresFrom } from '../repository-adapters/repository-kinds.js';
import type { DetectedDialect, FedoraDialect } from '../shared/fedora-dialect.js';

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
  /** FEDORA only: the Fedora line pinned by the view; null = detect it (DECISIONS.md §6). */
  readonly dialect: FedoraDialect | null;
  /** What detection last found for the view's current configuration; null until it ran (read-only). */
  readonly detectedDialect: DetectedDialect | null;
}

export const ENTITY = 'RepositoryView';

export const REPOSITORY_KINDS: readonly RepositoryKind[] = REPOSITORY_KIND_DECLARATIONS.map((d) => d.kind);

export function isRepositoryKind(value: unknown): value is RepositoryKind {
  return REPOSITORY_KINDS.some((kind) => kind === value);
}

/**
 * `GET /repository-view/types` (DECISIONS.md §6): each kind's name and the feature flags derived from the
 * facets it declares, in the declarations' order and with the keys in this order.
 */
export const REPOSITORY_VIEW_TYPES = REPOSITORY_KIND_DECLARATIONS.map((declaration) => ({
  value: declaration.kind,
  gloss: declaration.gloss,
  ...featuresFrom(declaration.capabilities),
}));

/** What a change to a view's password means: keep the stored one, clear it, or set a new one. */
export type PasswordChange = { kind: 'keep' } | { kind: 'clear' } | { kind: 'set'; value: string };
