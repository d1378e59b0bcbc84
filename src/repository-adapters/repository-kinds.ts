import { CapabilityUnsupportedError } from '../shared/errors.js';
import type {
  Capability,
  RepositoryAdapter,
  RepositoryFeatures,
  RepositoryKind,
} from './repository-adapter.js';

/** What a kind of repository offers: the one place its optional facets are declared. */
export interface RepositoryKindDeclaration {
  readonly kind: RepositoryKind;
  /** Its name for people (`GET /repository-view/types`). */
  readonly gloss: string;
  /** The optional facets its adapter provides; the contract suite checks the adapter agrees. */
  readonly capabilities: readonly Capability[];
}

/** Every kind, in the order `GET /repository-view/types` lists them (DECISIONS.md §6). */
export const REPOSITORY_KIND_DECLARATIONS: readonly RepositoryKindDeclaration[] = [
  { kind: 'FEDORA', gloss: 'Fedora', capabilities: ['transactions', 'versions', 'fixity'] },
  { kind: 'LDP', gloss: 'Linked Data Platform', capabilities: [] },
];

/**
 * The five feature flags of a context and of `GET /repository-view/types`, in their wire order.
 * Verifying (ping, auth, content) and querying (SPARQL Update) are part of every adapter.
 */
export function featuresFrom(capabilities: readonly Capability[]): RepositoryFeatures {
  return {
    versioning: capabilities.includes('versions'),
    verifying: true,
    transacting: capabilities.includes('transactions'),
    queryable: true,
    fixity: capabilities.includes('fixity'),
  };
}

/** The facets an adapter provides. */
export function capabilitiesOf(adapter: RepositoryAdapter): Capability[] {
  const all: readonly Capability[] = ['transactions', 'versions', 'fixity'];
  return all.filter((capability) => adapter[capability] !== undefined);
}

/** The feature flags of an adapter, from the facets it provides. */
export function featuresOf(adapter: RepositoryAdapter): RepositoryFeatures {
  return featuresFrom(capabilitiesOf(adapter));
}

/** The facet, or a CapabilityUnsupportedError naming it when the adapter's kind lacks it. */
export function requireFacet<C extends Capability>(
  adapter: RepositoryAdapter,
  capability: C,
): NonNullable<RepositoryAdapter[C]> {
  const facet = adapter[capability];
  if (facet === undefined) throw new CapabilityUnsupportedError(capability, adapter.kind);
  return facet;
}
