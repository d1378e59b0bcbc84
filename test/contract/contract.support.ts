import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { expect } from 'vitest';
import type {
  RepositoryAdapter,
  RepositoryFeatures,
  RepositoryKind,
  ResourceDescription,
} from '../../src/repository-adapters/repository-adapter.js';
import type {
  RepositoryHttpClient,
  RepositoryHttpClientOptions,
} from '../../src/repository-adapters/repository-http-client.js';
import { CapabilityUnsupportedError } from '../../src/shared/errors.js';
import type { DetectedDialect, FedoraDialect } from '../../src/shared/fedora-dialect.js';
import type { StubServers } from './stub-servers.js';

/** A repository view as the adapters take it. */
export interface ContractView {
  readonly rootUri: string;
  readonly username: string | null;
  readonly password: string | null;
}

/** A running repository to hold the contract against. */
export interface ContractTarget {
  readonly view: ContractView;
  /**
   * The same server with credentials it refuses. Absent for servers that do not check HTTP Basic
   * credentials (Community Solid Server); the suite then uses a loopback stub that refuses every request.
   */
  readonly wrongCredentials?: ContractView;
  close(): Promise<void>;
}

export interface ContractSetup {
  readonly kind: RepositoryKind;
  /** FEDORA: the Fedora line the target answers as, pinned on every adapter of the run. */
  readonly dialect?: FedoraDialect;
  /** What `detectFedoraDialect` must find at the target's root. */
  readonly detects: DetectedDialect;
  start(): Promise<ContractTarget>;
}

export type Adapter = RepositoryAdapter & { readonly client: RepositoryHttpClient };

/**
 * What every theme module of the contract works with, for one repository kind. `target`, `stubs` and
 * `workspace` exist once the runner's `beforeAll` has run, so tests read them inside `it`, never while
 * the suite is being collected; `kind` and `features` are known at once and choose which tests exist.
 */
export interface ContractRun {
  readonly kind: RepositoryKind;
  /** FEDORA: the Fedora line spoken; expectations differ only where the lines really do. */
  readonly dialect: FedoraDialect | undefined;
  readonly features: RepositoryFeatures;
  readonly target: ContractTarget;
  readonly stubs: StubServers;
  /** A container for this run; every test works below it. */
  readonly workspace: string;
  readonly adapterFor: (view: ContractView, options?: RepositoryHttpClientOptions) => Adapter;
  /** An adapter on the target's view (each call a fresh one, its request count at 0). */
  readonly adapter: (options?: RepositoryHttpClientOptions) => Adapter;
}

export const DCT = 'http://purl.org/dc/terms/';
export const EX = 'http://example.org/contract#';
export const TITLE = `${DCT}title`;
export const NOTE = `${EX}note`;
export const RELATED = `${EX}related`;
export const COUNT = `${EX}count`;
export const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
export const EVIL = 'x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y';

/** Statements the suite writes (its own predicates about `uri`), as sorted N-Triples-like keys. */
export function ours(description: ResourceDescription, uri = description.uri): string[] {
  return description.quads
    .filter(
      (q) => q.subject.value === uri && (q.predicate.value.startsWith(EX) || q.predicate.value === TITLE),
    )
    .map(key)
    .sort();
}

function key(q: Quad): string {
  const o = q.object;
  const object =
    o.termType === 'Literal'
      ? `"${o.value}"${o.language === '' ? (o.datatype.value.endsWith('#string') ? '' : `^^${o.datatype.value}`) : `@${o.language}`}`
      : `<${o.value}>`;
  return `<${q.predicate.value}> ${object}`;
}

export function sha(algorithm: 'sha1' | 'sha256' | 'sha512', data: Buffer): string {
  return createHash(algorithm).update(data).digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `run` may throw at once (an absent facet) or reject: both count. */
export async function expectUnsupported(
  run: () => Promise<unknown>,
  feature: string,
  kind: RepositoryKind,
): Promise<void> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(CapabilityUnsupportedError);
  expect((error as CapabilityUnsupportedError).feature).toBe(feature);
  expect((error as Error).message).toBe(`The ${kind} repository does not support ${feature}`);
}

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}
