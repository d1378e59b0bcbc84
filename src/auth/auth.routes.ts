import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { clientKey } from '../http/client-address.js';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { PasswordHashingBusyError } from '../users/password.js';
import { authTokenSchema } from '../users/user.api.js';
import { LoginBody } from './auth.schema.js';
import type { AuthService } from './auth.service.js';
import { loginRateLimit, tooManyRequests, type LoginRates } from './login-rate-limit.js';

const tags = ['authentication'];

/** POST /auth/login and /auth/logout (DECISIONS.md §5). */
export function authRoutes(auth: AuthService, rates: LoginRates) {
  return async (app: FastifyInstance): Promise<void> => {
    const limit = await loginRateLimit(app, rates);
    app.post(
      '/auth/login',
      {
        onRequest: limit,
        schema: {
          tags,
          summary: 'Sign in; send the token as `Authorization: Bearer <token>` (or a `jwt` header)',
          body: LoginBody,
          response: { 200: envelopeSchema(payloadOf('AuthToken', authTokenSchema)) },
        },
      },
      async (request, reply) => {
        try {
          const token = await auth.login(checkedBody(request, LoginBody), clientKey(request.ip));
          return success('AuthToken', token, 'Login successful');
        } catch (error) {
          // The password-hashing queue is full: a flood is under way; this attempt was not counted.
          if (error instanceof PasswordHashingBusyError) return tooManyRequests(reply, 1, error.message);
          throw error;
        }
      },
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
