import { PREFER_CONTAINMENT, RDF_ACCEPT } from './settings.js';

/** One bare upstream request, as autocannon sends it (path relative to the repository's origin). */
export interface BareRequest {
  method: 'GET' | 'PATCH' | 'HEAD';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A repository the context bench measures, and the bare upstream requests each operation needs. */
export interface Repository {
  readonly key: 'embedded' | 'css';
  readonly label: string;
  readonly type: 'FEDORA' | 'LDP';
  readonly root: string;
  readonly origin: string;
  readonly username?: string;
  readonly password?: string;
  /** Authorization for bare requests (the view's Basic credentials), or none. */
  readonly headers: Record<string, string>;
  /** The bare requests that render needs, in the order the service sends them. */
  render(container: string): BareRequest[];
  /** The PATCH adding a triple. */
  patch(container: string, body: string): BareRequest;
  /** What the report says about the minimum of each operation. */
  readonly minimumNotes: { render: string; add: string };
}

export const pathOf = (uri: string) => {
  const url = new URL(uri);
  return `${url.pathname}${url.search}`;
};

export function embeddedRepository(serviceUrl: string, username: string, password: string): Repository {
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  return {
    key: 'embedded',
    label: 'embedded (FEDORA view on /rest/)',
    type: 'FEDORA',
    root: `${serviceUrl}/rest/`,
    origin: serviceUrl,
    username,
    password,
    headers,
    render: (container) => [
      {
        method: 'GET',
        path: pathOf(container),
        headers: { ...headers, accept: 'text/turtle', prefer: PREFER_CONTAINMENT },
      },
      {
        method: 'GET',
        path: pathOf(`${container.replace(/\/$/, '')}/fcr:versions`),
        headers: { ...headers, accept: `${RDF_ACCEPT}, application/link-format;q=0.4` },
      },
    ],
    patch: (container, body) => ({
      method: 'PATCH',
      path: pathOf(container),
      headers: { ...headers, 'content-type': 'application/sparql-update' },
      body,
    }),
    minimumNotes: {
      render:
        'GET the container with ldp:contains (Prefer … PreferContainment) + GET its fcr:versions ' +
        '(the context lists versions; Fedora names them only in the TimeMap)',
      add:
        'PATCH (INSERT DATA) + the render pair, because the answer is the context after the change ' +
        '(the brief’s bare baseline is the PATCH alone: see the “PATCH only” row)',
    },
  };
}

export function cssRepository(base: string): Repository {
  const root = base.endsWith('/') ? base : `${base}/`;
  return {
    key: 'css',
    label: 'Community Solid Server 7.2 (LDP view, memory backend)',
    type: 'LDP',
    root,
    origin: new URL(root).origin,
    headers: {},
    render: (container) => [{ method: 'GET', path: pathOf(container), headers: { accept: 'text/turtle' } }],
    patch: (container, body) => ({
      method: 'PATCH',
      path: pathOf(`${container}.meta`),
      headers: { 'content-type': 'application/sparql-update' },
      body,
    }),
    minimumNotes: {
      render:
        'GET the container: CSS puts the triples of its .meta description into the container’s own ' +
        'representation, so no GET of .meta is needed (checked: the 20 metadata triples come back)',
      add:
        'PATCH <container>.meta + GET the container for the answer (the brief’s bare baseline is the ' +
        'PATCH alone: see the “PATCH only” row)',
    },
  };
}
