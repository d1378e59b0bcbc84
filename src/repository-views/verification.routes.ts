import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { emptySuccess } from '../http/envelope.js';
import { envelopeSchema } from '../http/schemas.js';
import type { RepositoryAdapter, VerificationResult } from '../repository-adapters/repository-adapter.js';
import { UpstreamFailedError } from '../shared/errors.js';
import { checkedBody } from '../http/validation-errors.js';
import { RepositoryKindParameter, VerificationBody } from './repository-view.schema.js';
import type { RepositoryViewService } from './repository-view.service.js';

const CHECKS = {
  ping: { run: (adapter: RepositoryAdapter) => adapter.ping(), success: 'Ping was successful!' },
  auth: {
    run: (adapter: RepositoryAdapter) => adapter.checkAuth(),
    // The interface's default message: it names no other for auth and content.
    success: undefined,
  },
  content: {
    run: (adapter: RepositoryAdapter) => adapter.checkContent(),
    success: undefined,
  },
} as const;

const TypeParams = Type.Object({ type: RepositoryKindParameter });

/**
 * Interface §4.7 at both path forms (`/repository-view/{type}/ping` and `…/verify/ping`), with real
 * checks (DECISIONS.md §6): a failure is 200 ERROR saying why.
 */
export function verificationRoutes(views: RepositoryViewService) {
  return (app: FastifyInstance): void => {
    for (const [check, { run, success }] of Object.entries(CHECKS)) {
      for (const prefix of ['', '/verify']) {
        app.post<{ Params: Static<typeof TypeParams> }>(
          `/repository-view/:type${prefix}/${check}`,
          {
            schema: {
              tags: ['repository view verification'],
              summary: `Verify a (possibly unsaved) view: ${check}`,
              params: TypeParams,
              body: VerificationBody,
              response: { 200: envelopeSchema() },
            },
          },
          async (request) => {
            const adapter = await views.adapterForVerification(
              request.params.type,
              checkedBody(request, VerificationBody),
            );
            const result: VerificationResult = await run(adapter);
            if (!result.ok) throw new UpstreamFailedError(result.message ?? `${check} failed`);
            return emptySuccess(success);
          },
        );
      }
    }
  };
}
