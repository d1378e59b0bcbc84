import type { Quad } from '@rdfjs/types';
import type { DetectedDialect, FedoraDialect } from '../shared/fedora-dialect.js';
import { drainUnread } from './upstream-exchange.js';
import { FedoraAdapter } from './fedora-adapter.js';
import { detectFedoraDialect } from './fedora-dialect-detection.js';
import type {
  BinaryContent,
  ChildStatement,
  CreateOptions,
  FixityFacet,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  TransactionFacet,
  TransactionRef,
  UploadOptions,
  VerificationResult,
  VersionFacet,
  WriteConditions,
} from './repository-adapter.js';
import type { RepositoryHttpClient } from './repository-http-client.js';

/**
 * A FEDORA adapter for a view that pins no dialect: the first call that needs the Fedora line detects
 * it (`fedora-dialect-detection.ts`), tells `onDetected` once, and every call then goes to a
 * `FedoraAdapter` of that line. Concurrent first calls share one detection; a failed detection is not
 * kept (the call fails with the probe's error, the next call probes again). A server that is no Fedora
 * (`LDP`) is spoken to as Fedora 6/7, the API the specification describes. Verification needs no
 * dialect (every line answers it alike) and never triggers detection.
 */
export class DetectingFedoraAdapter implements RepositoryAdapter {
  readonly kind = 'FEDORA' as const;
  readonly transactions: TransactionFacet;
  readonly versions: VersionFacet;
  readonly fixity: FixityFacet;
  private detection: Promise<FedoraAdapter> | undefined;
  /** Verification is the same on every line. */
  private readonly verifier: FedoraAdapter;

  constructor(
    readonly client: RepositoryHttpClient,
    private readonly onDetected?: (dialect: DetectedDialect) => void,
  ) {
    this.verifier = new FedoraAdapter(client);
    const facet =
      <K extends 'transactions' | 'versions' | 'fixity'>(name: K) =>
      async <T>(call: (facet: NonNullable<FedoraAdapter[K]>) => Promise<T>): Promise<T> =>
        call((await this.adapter())[name]);
    const tx = facet('transactions');
    const versions = facet('versions');
    const fixity = facet('fixity');
    this.transactions = {
      begin: () => tx((f) => f.begin()),
      refresh: (ref) => tx((f) => f.refresh(ref)),
      commit: (ref) => tx((f) => f.commit(ref)),
      rollback: (ref) => tx((f) => f.rollback(ref)),
    };
    this.versions = {
      list: (uri) => versions((f) => f.list(uri)),
      create: (uri, label) => versions((f) => f.create(uri, label)),
      restore: (uri) => versions((f) => f.restore(uri)),
      delete: (uri) => versions((f) => f.delete(uri)),
    };
    this.fixity = { check: (uri, ref) => fixity((f) => f.check(uri, ref)) };
  }

  /** The Fedora line spoken (detected on the first call). */
  async dialect(): Promise<FedoraDialect> {
    return (await this.adapter()).dialect();
  }

  private adapter(): Promise<FedoraAdapter> {
    this.detection ??= detectFedoraDialect(this.client).then(
      (found) => {
        this.onDetected?.(found);
        return new FedoraAdapter(this.client, found === 'LDP' ? 'FEDORA_6' : found);
      },
      (error: unknown) => {
        this.detection = undefined;
        throw error;
      },
    );
    return this.detection;
  }

  async describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription> {
    return (await this.adapter()).describe(uri, tx);
  }

  async createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx?: TransactionRef,
    options?: CreateOptions,
  ): Promise<string> {
    return (await this.adapter()).createChild(parentUri, statements, tx, options);
  }

  async updateTriples(
    uri: string,
    remove: readonly Quad[],
    add: readonly Quad[],
    tx?: TransactionRef,
    conditions?: WriteConditions,
  ): Promise<void> {
    return (await this.adapter()).updateTriples(uri, remove, add, tx, conditions);
  }

  async runUpdate(uri: string, update: string, tx?: TransactionRef): Promise<void> {
    return (await this.adapter()).runUpdate(uri, update, tx);
  }

  async uploadBinary(
    parentUri: string,
    binary: NewBinary,
    tx?: TransactionRef,
    options?: UploadOptions,
  ): Promise<string> {
    let adapter: FedoraAdapter;
    try {
      adapter = await this.adapter();
    } catch (error) {
      // As after a failed upload: the caller's stream must not stall.
      drainUnread(binary.content);
      throw error;
    }
    return adapter.uploadBinary(parentUri, binary, tx, options);
  }

  async exists(uri: string, tx?: TransactionRef): Promise<boolean> {
    return (await this.adapter()).exists(uri, tx);
  }

  async downloadBinary(uri: string, tx?: TransactionRef): Promise<BinaryContent> {
    return (await this.adapter()).downloadBinary(uri, tx);
  }

  async delete(uri: string, tx?: TransactionRef): Promise<void> {
    return (await this.adapter()).delete(uri, tx);
  }

  ping(): Promise<VerificationResult> {
    return this.verifier.ping();
  }

  checkAuth(): Promise<VerificationResult> {
    return this.verifier.checkAuth();
  }

  checkContent(): Promise<VerificationResult> {
    return this.verifier.checkContent();
  }
}
