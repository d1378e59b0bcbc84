import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { requireObjectBody } from '../shared/request-body.js';
import { authTokenSchema, loginSchema } from '../users/user.api.js';
import type { AuthService } from './auth.service.js';

const tags = ['authentication'];

/** POST /auth/login and /auth/logout (DECISIONS.md §5). */
export function authRoutes(auth: AuthService) {
  return (app: FastifyInstance): void => {
    app.post(
      '/auth/login',
      {
        schema: {
          tags,
          summary: 'Sign in; send the token as `Authorization: Bearer <token>` (or a `jwt` header)',
          body: loginSchema,
          response: { 200: envelopeSchema(payloadOf('AuthToken', authTokenSchema)) },
        },
      },
      async (request) =>
        success('AuthToken', await auth.login(requireObjectBody(request.body)), 'Login successful'),
    );
    app.post(
      '/auth/logout',
      { schema: { tags, summary: 'Revoke the token of this request', response: { 200: envelopeSchema() } } },
      async (request) => {
        await auth.logout(principalOf(request));
        return emptySuccess('Logout successful');
      },
    );
  };
}
