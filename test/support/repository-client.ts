import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import N3 from 'n3';
import type { Config } from '../../src/config/config.js';
import { buildTestApp, type TestApp } from './test-app.js';

/** Credentials and base URL the repository tests use (inject() with this Host header). */
export const REPO_USER = 'fedoraAdmin';
export const REPO_PASSWORD = 'test-repository-password';
export const HOST = 'repo.test';
export const BASE = `http://${HOST}/rest`;
export const AUTH = `Basic ${Buffer.from(`${REPO_USER}:${REPO_PASSWORD}`).toString('base64')}`;

export const NS = {
  ldp: 'http://www.w3.org/ns/ldp#',
  fedora: 'http://fedora.info/definitions/v4/repository#',
  premis: 'http://www.loc.gov/premis/rdf/v1#',
  ebucore: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#',
  dcterms: 'http://purl.org/dc/terms/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  memento: 'http://mementoweb.org/ns#',
} as const;

export async function buildRepositoryApp(
  overrides: Partial<Config> = {},
  options: Parameters<typeof buildTestApp>[1] = {},
): Promise<TestApp> {
  return buildTestApp({ repositoryPassword: REPO_PASSWORD, embeddedRepository: true, ...overrides }, options);
}

export interface RepoRequest {
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** false: send no Authorization header. */
  readonly auth?: boolean;
}

/** A request to the embedded repository through inject(), authenticated unless told otherwise. */
export function repo(
  app: FastifyInstance,
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RepoRequest = {},
): Promise<LightMyRequestResponse> {
  const url = path.startsWith('http')
    ? new URL(path).pathname
    : path.startsWith('/rest')
      ? path
      : `/rest${path}`;
  return app.inject({
    method,
    url,
    headers: {
      host: HOST,
      ...(options.auth === false ? {} : { authorization: AUTH }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { payload: options.body }),
  });
}

export function turtle(body: string, extra: Record<string, string> = {}): RepoRequest {
  return { headers: { 'content-type': 'text/turtle', ...extra }, body };
}

export function sparql(update: string, extra: Record<string, string> = {}): RepoRequest {
  return { headers: { 'content-type': 'application/sparql-update', ...extra }, body: update };
}

/** Creates a container (PUT at a path) and returns its IRI. */
export async function createContainer(app: FastifyInstance, path: string, body = ''): Promise<string> {
  const response = await repo(app, 'PUT', path, body === '' ? {} : turtle(body));
  if (response.statusCode !== 201) throw new Error(`PUT ${path}: ${response.statusCode} ${response.body}`);
  return `${BASE}${path}`;
}

/** Parses a Turtle/N-Triples response into an N3 store. */
export function graphOf(response: LightMyRequestResponse, base = BASE): N3.Store {
  const store = new N3.Store();
  store.addQuads(new N3.Parser({ baseIRI: `${base}/` }).parse(response.body));
  return store;
}

/** The values of `predicate` for `subject` in a response body. */
export function objects(response: LightMyRequestResponse, subject: string, predicate: string): string[] {
  return graphOf(response)
    .getObjects(subject, predicate, null)
    .map((o) => o.value);
}

/** All Link header values as one string (inject may give one string or several). */
export function linkHeader(response: LightMyRequestResponse): string {
  const value = response.headers.link;
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

export function hasLink(response: LightMyRequestResponse, uri: string, rel: string): boolean {
  return linkHeader(response)
    .split(/,\s*(?=<)/)
    .some(
      (part) => part.startsWith(`<${uri}>`) && new RegExp(`rel="[^"]*\\b${escape(rel)}\\b[^"]*"`).test(part),
    );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/#]/g, '\\$&');
}
