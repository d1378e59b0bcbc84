import type { DetectedDialect, FedoraDialect } from '../shared/fedora-dialect.js';
import { FedoraAdapter } from './fedora-adapter.js';
import { DetectingFedoraAdapter } from './fedora-detecting-adapter.js';
import { LdpAdapter } from './ldp-adapter.js';
import type { RepositoryAdapter, RepositoryKind } from './repository-adapter.js';
import { RepositoryHttpClient, type RepositoryHttpClientOptions } from './repository-http-client.js';

/** What `createAdapter` needs of a repository view. */
export interface AdapterView {
  readonly type: RepositoryKind;
  readonly rootUri: string;
  readonly username?: string | null | undefined;
  readonly password?: string | null | undefined;
  /** FEDORA only: the Fedora line to speak; null or absent = detect it on first use (`fedora-api.md` §1.9). */
  readonly dialect?: FedoraDialect | null | undefined;
  /** FEDORA only: told what detection found, once, so the view can show and keep it. */
  readonly onDetected?: ((dialect: DetectedDialect) => void) | undefined;
  /** The saved view's id (its requests are counted by it); absent for a view being verified. */
  readonly viewId?: number | undefined;
}

/**
 * The adapter for a view's kind, over a fresh `RepositoryHttpClient` (connections are pooled across
 * clients, in `options.agents` when given, so adapters are cheap: create one per request). A root URI that is not absolute http(s), or
 * carries credentials, is a BadRequestError.
 */
export function createAdapter(
  view: AdapterView,
  options: RepositoryHttpClientOptions = {},
): RepositoryAdapter & {
  readonly client: RepositoryHttpClient;
} {
  const client = new RepositoryHttpClient(view, options);
  switch (view.type) {
    case 'FEDORA':
      // A pinned dialect is spoken as it is; none is detected on first use (and told to onDetected).
      return view.dialect === null || view.dialect === undefined
        ? new DetectingFedoraAdapter(client, view.onDetected)
        : new FedoraAdapter(client, view.dialect);
    case 'LDP':
      return new LdpAdapter(client);
  }
}
