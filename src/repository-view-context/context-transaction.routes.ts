import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { payloadOf } from '../http/schemas.js';
import { PREFIX, schemaFor, sessionOf, type ContextRequest } from './context-route-shared.js';
import type { ContextService } from './context.service.js';

const DETAILS = payloadOf('TransactionDetails', {
  type: 'object',
  properties: { token: { type: 'string' }, expiration: { type: 'integer' } },
});
const CREATED = 'Transaction successfully created';

/** Start (GET), refresh (PUT, form), commit (POST, our addition) and roll back (DELETE). */
export function contextTransactionRoutes(app: FastifyInstance, service: ContextService): void {
  const formContextUri = (body: unknown, fallback: string | undefined) =>
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { contextUri?: unknown }).contextUri === 'string'
      ? (body as { contextUri: string }).contextUri
      : fallback;

  app.get<ContextRequest>(
    `${PREFIX}/transaction`,
    { schema: schemaFor('Start a transaction', DETAILS) },
    async (request) => {
      const opened = await service.openView(
        request.params.type,
        request.params.repositoryViewId,
        principalOf(request),
      );
      return success('TransactionDetails', await service.startTransaction(opened), CREATED);
    },
  );
  app.put<ContextRequest>(
    `${PREFIX}/transaction`,
    {
      schema: {
        ...schemaFor('Refresh a transaction (form field contextUri carries the token)', DETAILS),
        consumes: ['application/x-www-form-urlencoded'],
      },
    },
    async (request) => {
      const session = await sessionOf(
        service,
        request,
        formContextUri(request.body, request.query.contextUri),
      );
      return success('TransactionDetails', await service.refreshTransaction(session), CREATED);
    },
  );
  app.post<ContextRequest>(
    `${PREFIX}/transaction`,
    { schema: schemaFor('Commit a transaction', undefined) },
    async (request) => {
      await service.commitTransaction(
        await sessionOf(service, request, formContextUri(request.body, request.query.contextUri)),
      );
      return emptySuccess('Transaction successfully committed');
    },
  );
  app.delete<ContextRequest>(
    `${PREFIX}/transaction`,
    { schema: schemaFor('Roll back a transaction', undefined) },
    async (request) => {
      await service.rollbackTransaction(await sessionOf(service, request));
      return emptySuccess(CREATED);
    },
  );
}
