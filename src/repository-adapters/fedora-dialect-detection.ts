import type { DetectedDialect } from '../shared/fedora-dialect.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { linkTargets } from '../linked-data/http/link.js';
import { isRdfMediaType, RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { FEDORA, RDF_TYPE } from '../linked-data/rdf/vocab.js';
import { readRdf, sameResource } from './upstream-exchange.js';
import { PREFER_NO_CONTAINMENT } from './fedora-version-facet.js';
import { discard, type RepositoryHttpClient } from './repository-http-client.js';

/** The relation Fedora 6.0–6.4 announces its transaction endpoint with (on the root). */
export const TX_ENDPOINT_REL = 'http://fedora.info/definitions/v4/transaction#endpoint';

/**
 * Which Fedora line answers at the view's root (`fedora-api.md` §1.9), by read-only probes in order:
 * 1. `GET <root>fcr:systeminfo` (JSON) answering a 6.x/7.x version → FEDORA_6 (6.5+);
 * 2. `HEAD <root>` with a transaction-endpoint link → FEDORA_6 (6.0–6.4);
 * 3. the same answer with `Link: <…/fcr:acl>; rel="acl"` → FEDORA_5 (5.x core adds it everywhere; the
 *    target must be Fedora's `fcr:acl`: a Solid server's `.acl` link is no Fedora);
 * 4. `GET <root>` RDF with `rdf:type fedora:RepositoryRoot` and `fedora:hasTransactionProvider` → FEDORA_4;
 * 5. anything else → LDP.
 * A probe that gets no answer (refused, timed out) and a root that refuses the GET fail the detection
 * with that UpstreamFailedError: nothing is concluded from a repository that did not answer.
 */
export async function detectFedoraDialect(client: RepositoryHttpClient): Promise<DetectedDialect> {
  const root = client.rootUri;
  if (await answersSystemInfo(client)) return 'FEDORA_6';

  const head = await client.send({ method: 'HEAD', uri: root, headers: { accept: RDF_ACCEPT } });
  await discard(head);
  if (head.status >= 200 && head.status < 300) {
    const links = head.links();
    if (linkTargets(links, TX_ENDPOINT_REL).length > 0) return 'FEDORA_6';
    const acl = linkTargets(links, 'acl').map((target) => new URL(target, head.url).pathname);
    if (acl.some((path) => path.replace(/\/+$/, '').endsWith('/fcr:acl'))) return 'FEDORA_5';
  }

  const response = await client.expectOk({
    method: 'GET',
    uri: root,
    headers: { accept: RDF_ACCEPT, prefer: PREFER_NO_CONTAINMENT },
  });
  if (!isRdfMediaType(mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER)) {
    await discard(response);
    return 'LDP';
  }
  let quads;
  try {
    quads = await readRdf(client, response);
  } catch {
    // Unreadable RDF is no Fedora root.
    return 'LDP';
  }
  const about = quads.filter((q) => sameResource(q.subject.value, root));
  const isRoot = about.some(
    (q) => q.predicate.value === RDF_TYPE && q.object.value === FEDORA.RepositoryRoot,
  );
  const hasTx = about.some((q) => q.predicate.value === FEDORA.hasTransactionProvider);
  return isRoot && hasTx ? 'FEDORA_4' : 'LDP';
}

/** Probe 1: `fcr:systeminfo` answers 200 with `"version": "6…"` or `"7…"` (or later). */
async function answersSystemInfo(client: RepositoryHttpClient): Promise<boolean> {
  const response = await client.send({
    method: 'GET',
    uri: `${client.rootUri}fcr:systeminfo`,
    headers: { accept: 'application/json' },
  });
  if (response.status !== 200) {
    await discard(response);
    return false;
  }
  let version: unknown;
  try {
    version = (JSON.parse(await client.text(response, 64 * 1024)) as { version?: unknown }).version;
  } catch {
    return false;
  }
  const major = typeof version === 'string' ? Number(/^(\d+)\./.exec(version)?.[1]) : NaN;
  return major >= 6;
}
