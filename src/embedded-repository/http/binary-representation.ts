import { parseWantDigest } from '../binaries/digests.js';
import type { ResourceRecord } from '../store/record.js';
import type { Memento } from '../store/repository.store.js';
import { isActiveMediaType, REPOSITORY_SAFETY_HEADERS } from './active-content.js';
import { allowOf, header, sub, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { parseByteRange } from '../../linked-data/http/range.js';
import { etagMatches, httpDate } from './headers.js';
import { binaryEtag, dialectLinks, link, typeLinks } from './render.js';
import { MEMENTO } from '../../linked-data/rdf/vocab.js';
import { formatDisposition } from '../../linked-data/http/content-disposition.js';

// A binary's answer (a resource or a memento): digests, conditional and range requests, disposition.

/** A binary's content (the current one, or a memento's), streamed from the binary store. */
export async function sendBinary(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
  options: { head: boolean; memento?: Memento },
): Promise<unknown> {
  const { request, reply } = ctx;
  const binary = record.binary;
  if (binary === null) throw new Error(`binary ${record.path} without content`);
  const iri = ctx.mapper.external(record.path);
  const etag = binaryEtag(record);
  const links = [...typeLinks('binary'), link(sub(iri, 'fcr:metadata'), 'describedby')];
  if (options.memento === undefined) {
    links.push(...dialectLinks(deps.settings.dialect, iri));
    reply.header('allow', allowOf(record));
  } else {
    links.push(
      link(MEMENTO.Memento, 'type'),
      link(iri, 'original timegate'),
      link(sub(iri, 'fcr:versions'), 'timemap'),
    );
    reply.header('memento-datetime', httpDate(options.memento.datetime));
    reply.header('allow', 'GET, HEAD, OPTIONS, DELETE');
  }
  reply.header('link', links.join(', '));
  reply.header('etag', etag);
  reply.header('last-modified', httpDate(record.lastModified));
  reply.header('accept-ranges', 'bytes');
  reply.header('vary', 'Range, Accept-Datetime, Want-Digest');
  const query = (request.raw.url ?? '').split('?')[1] ?? '';
  // Active content (HTML, SVG, XML, script) is never inline: it would run on the service's origin.
  const inline = new URLSearchParams(query).get('inline') === 'true' && !isActiveMediaType(binary.mimeType);
  reply.headers(REPOSITORY_SAFETY_HEADERS);
  reply.header(
    'content-disposition',
    formatDisposition(binary.filename ?? undefined, {
      type: inline ? 'inline' : 'attachment',
      extra: { size: binary.size },
    }),
  );
  const wantHeader = header(request, 'want-digest');
  if (wantHeader !== undefined) {
    const wanted = parseWantDigest(wantHeader);
    if (wanted.length === 0)
      throw RepositoryError.badRequest('None of the Want-Digest algorithms is supported', true);
    const { digests } = await deps.binaries.digest(
      binary.sha512,
      wanted.map((w) => w.node),
    );
    reply.header(
      'digest',
      wanted.map((w) => `${w.name}=${digests.get(w.node)?.toString('base64') ?? ''}`).join(', '),
    );
  }
  const ifNoneMatch = header(request, 'if-none-match');
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return reply.code(304).send();
  reply.type(binary.mimeType);
  const ifRange = header(request, 'if-range');
  const range =
    ifRange === undefined || ifRange === etag
      ? parseByteRange(header(request, 'range'), binary.size)
      : undefined;
  if (range === 'unsatisfiable') {
    throw new RepositoryError(416, 'Range not satisfiable', {
      headers: { 'content-range': `bytes */${binary.size}` },
    });
  }
  if (range !== undefined) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${binary.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(binary.size));
  }
  if (options.head) return reply.send();
  if (binary.size === 0) return reply.send('');
  // The response is the sink: it writes out each chunk, so one buffer can serve every read.
  return reply.send(await deps.binaries.read(binary.sha512, range, reply.raw));
}
