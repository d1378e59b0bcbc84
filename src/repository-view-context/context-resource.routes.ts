import { principalOf } from '../http/access.js';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { emptySuccess, success } from '../http/envelope.js';
import { payloadOf } from '../http/schemas.js';
import { formatDisposition } from '../linked-data/http/content-disposition.js';
import { BadRequestError } from '../shared/errors.js';
import { contextSchema } from './context.api.js';
import { PREFIX, schemaFor, sessionOf, type ContextRequest } from './context-route-shared.js';
import type { ContextService } from './context.service.js';

const CONTEXT = payloadOf('RepositoryViewContext', contextSchema);
const FIXITY = payloadOf('FixityReport', {
  type: 'object',
  properties: { status: { type: 'string' }, messageDigest: { type: 'string' }, size: { type: 'string' } },
});

/**
 * A file over the upload limit: 413 ERROR (DECISIONS §2, a body over the limit). Shaped as a framework
 * error (code and statusCode) so the error handler answers its status and message.
 */
class FileTooLargeError extends Error {
  readonly code = 'FST_REQ_FILE_TOO_LARGE';
  readonly statusCode = 413;
  constructor(limit: number) {
    super(`The file is larger than the limit of ${limit} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * Busboy ends a file part early at the size limit (`truncated`) as if it were complete; streamed on like
 * that, the repository would store the first `limit` bytes. Failing the stream instead makes undici abort
 * the upstream request (the connection is cut, the body never completes), so the repository discards it.
 * Returns a check that throws the 413 once the file went over the limit.
 */
function failAtLimit(file: Readable & { truncated: boolean }, limit: number): () => void {
  file.once('limit', () => {
    file.destroy(new FileTooLargeError(limit));
  });
  return () => {
    if (file.truncated) throw new FileTooLargeError(limit);
  };
}

/**
 * Binaries and versions through the context. Uploads stream from the multipart request to the
 * repository; `contextUri` comes from the query or from a form part sent before the file.
 */
export function contextResourceRoutes(
  app: FastifyInstance,
  service: ContextService,
  limits: { maxFileBytes: number },
): void {
  app.post<ContextRequest>(
    `${PREFIX}/resource`,
    {
      schema: {
        ...schemaFor('Upload a binary as a new child (multipart: contextUri, file)', CONTEXT),
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      // Permission first: a curator learns nothing about a view they do not curate from the body's faults.
      const caller = principalOf(request);
      const opened = await service.openView(request.params.type, request.params.repositoryViewId, caller);
      if (!request.isMultipart())
        throw new BadRequestError('Send multipart/form-data with the parts contextUri and file');
      let contextUri = request.query.contextUri;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'contextUri' && typeof part.value === 'string') contextUri = part.value;
          continue;
        }
        // At once: the limit may be reached while the view is looked up below.
        const refuseOverLimit = failAtLimit(part.file, limits.maxFileBytes);
        if (part.fieldname !== 'file') throw new BadRequestError('The file part must be named file');
        if (contextUri === undefined)
          throw new BadRequestError('Send contextUri (a query parameter, or a form part before the file)');
        const session = service.sessionIn(opened, contextUri, caller, request.id);
        refuseOverLimit();
        const filename = part.filename === '' ? 'upload' : part.filename;
        const context = await service
          .uploadResource(session, {
            content: part.file,
            filename,
            contentType: part.mimetype || 'application/octet-stream',
          })
          .catch((error: unknown) => {
            // The upstream request failed because the file went over the limit: say that, not how.
            refuseOverLimit();
            throw error;
          });
        refuseOverLimit();
        return success('RepositoryViewContext', context);
      }
      throw new BadRequestError('The multipart body has no file part');
    },
  );
  app.get<ContextRequest>(
    `${PREFIX}/resource`,
    { schema: schemaFor('Render a binary’s context', CONTEXT) },
    async (request) =>
      success('RepositoryViewContext', await service.read(await sessionOf(service, request))),
  );
  app.get<ContextRequest>(
    `${PREFIX}/resource/content`,
    { schema: { ...schemaFor('Download the binary (raw bytes, not an envelope)', undefined), response: {} } },
    async (request, reply) => {
      const binary = await service.download(await sessionOf(service, request));
      reply.header('content-type', binary.contentType);
      // Served from the API's origin: never rendered there (an uploaded page could run script with the
      // curator's session), always downloaded, and sandboxed should a browser render it anyway.
      reply.header('content-disposition', formatDisposition(binary.filename));
      reply.header('content-security-policy', 'sandbox');
      // When our answer ends early (client gone), release the upstream stream and its connection too.
      const release = () => {
        if (!binary.content.destroyed) binary.content.destroy();
      };
      reply.raw.once('close', release);
      reply.raw.once('finish', release);
      return reply.send(binary.content);
    },
  );
  app.delete<ContextRequest>(
    `${PREFIX}/resource`,
    { schema: schemaFor('Delete the binary', undefined) },
    async (request) => {
      await service.delete(await sessionOf(service, request));
      return emptySuccess();
    },
  );
  app.get<ContextRequest>(
    `${PREFIX}/resource/fixity`,
    { schema: schemaFor('Check the binary’s fixity', FIXITY) },
    async (request) => {
      const report = await service.fixity(await sessionOf(service, request));
      return success('FixityReport', {
        status: report.status,
        messageDigest: report.messageDigest,
        size: report.size,
      });
    },
  );

  app.post<ContextRequest>(
    `${PREFIX}/version`,
    { schema: schemaFor('Create a version (?name= labels it)', CONTEXT) },
    async (request) =>
      success(
        'RepositoryViewContext',
        await service.createVersion(await sessionOf(service, request), request.query.name),
      ),
  );
  app.patch<ContextRequest>(
    `${PREFIX}/version`,
    { schema: schemaFor('Restore the version named by contextUri', CONTEXT) },
    async (request) =>
      success('RepositoryViewContext', await service.restoreVersion(await sessionOf(service, request))),
  );
  app.delete<ContextRequest>(
    `${PREFIX}/version`,
    { schema: schemaFor('Delete the version named by contextUri', undefined) },
    async (request) => {
      await service.deleteVersion(await sessionOf(service, request));
      return emptySuccess();
    },
  );
}
