import type { FastifyInstance } from 'fastify';
import { emptySuccess, success } from '../http/envelope.js';
import { payloadOf } from '../http/schemas.js';
import { BadRequestError } from '../shared/errors.js';
import { contextSchema } from './context.api.js';
import { PREFIX, schemaFor, sessionOf, type ContextRequest } from './context.routes.js';
import type { ContextService } from './context.service.js';

const CONTEXT = payloadOf('RepositoryViewContext', contextSchema);
const FIXITY = payloadOf('FixityReport', {
  type: 'object',
  properties: { status: { type: 'string' }, messageDigest: { type: 'string' }, size: { type: 'string' } },
});

/**
 * Binaries and versions through the context. Uploads stream from the multipart request to the
 * repository; `contextUri` comes from the query or from a form part sent before the file.
 */
export function contextResourceRoutes(app: FastifyInstance, service: ContextService): void {
  app.post<ContextRequest>(
    `${PREFIX}/resource`,
    {
      schema: {
        ...schemaFor('Upload a binary as a new child (multipart: contextUri, file)', CONTEXT),
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      if (!request.isMultipart())
        throw new BadRequestError('Send multipart/form-data with the parts contextUri and file');
      let contextUri = request.query.contextUri;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname === 'contextUri' && typeof part.value === 'string') contextUri = part.value;
          continue;
        }
        if (part.fieldname !== 'file') throw new BadRequestError('The file part must be named file');
        if (contextUri === undefined)
          throw new BadRequestError('Send contextUri (a query parameter, or a form part before the file)');
        const session = await sessionOf(service, request, contextUri);
        const filename = part.filename === '' ? 'upload' : part.filename;
        const context = await service.uploadResource(session, {
          content: part.file,
          filename,
          contentType: part.mimetype || 'application/octet-stream',
        });
        if (part.file.truncated) throw new BadRequestError('The file is larger than the configured maximum');
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
      if (binary.filename !== undefined)
        reply.header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(binary.filename)}`,
        );
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
