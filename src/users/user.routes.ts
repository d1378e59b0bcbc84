import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { parseGetJsonBody } from '../http/get-body.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { UnauthenticatedError } from '../shared/errors.js';
import { checkedBody } from '../http/validation-errors.js';
import { checkBody } from '../shared/body-check.js';
import { IdBody } from '../shared/body-schema.js';
import { toUserJson } from './user.js';
import { authTokenSchema, credentialsSchema, userSchema } from './user.api.js';
import { NewUserBody, PasswordChangeBody, UserUpdateBody } from './user.schema.js';
import type { UserService } from './user.service.js';

const tags = ['users'];
const USER_LIST_KEY = 'ArrayList<User>';

/** Interface §4.6 plus /user/create and /user/password (DECISIONS.md §5). */
export function userRoutes(users: UserService, auth: AuthService, bodyLimit: number) {
  return (app: FastifyInstance): void => {
    const one = envelopeSchema(payloadOf('User', userSchema));

    app.get(
      '/user/credentials',
      {
        schema: {
          tags,
          summary: 'The signed-in user',
          response: { 200: envelopeSchema(payloadOf('Credentials', credentialsSchema)) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const user = await users.get(principal.userId);
        if (user === undefined) throw new UnauthenticatedError();
        return success('Credentials', { ...toUserJson(user), exp: principal.expiresAt });
      },
    );
    app.get(
      '/user/all',
      {
        schema: {
          tags,
          summary: 'All users, by username',
          response: { 200: envelopeSchema(payloadOf(USER_LIST_KEY, { type: 'array', items: userSchema })) },
        },
      },
      async () => success(USER_LIST_KEY, (await users.list()).map(toUserJson)),
    );
    app.post(
      '/user/create',
      { schema: { tags, summary: 'Create a user (ADMIN)', body: NewUserBody, response: { 200: one } } },
      async (request) => success('User', toUserJson(await users.create(checkedBody(request, NewUserBody)))),
    );
    app.post(
      '/user/update',
      {
        schema: {
          tags,
          summary: 'Update a user: ADMIN any user; others only their own names and e-mail',
          body: UserUpdateBody,
          response: { 200: one },
        },
      },
      async (request) =>
        success(
          'User',
          toUserJson(await users.update(checkedBody(request, UserUpdateBody), principalOf(request))),
        ),
    );
    const remove = async (request: FastifyRequest) => {
      // Fastify validates the POST body; a GET body is parsed by its preValidation hook, after which the
      // same schema checks it here.
      const body = request.method === 'GET' ? checkBody(IdBody, request.body) : checkedBody(request, IdBody);
      await users.delete(body, principalOf(request));
      return emptySuccess();
    };
    const getDeleteSchema = {
      tags,
      summary: 'Delete a user by id (ADMIN)',
      response: { 200: envelopeSchema() },
    };
    const deleteSchema = { ...getDeleteSchema, body: IdBody };
    app.post('/user/delete', { schema: deleteSchema }, remove);
    // The interface's sample sends GET with a JSON body; Fastify leaves GET bodies unparsed.
    app.get(
      '/user/delete',
      {
        schema: getDeleteSchema,
        preValidation: (request) => parseGetJsonBody(request, bodyLimit),
      },
      remove,
    );
    app.post(
      '/user/password',
      {
        schema: {
          tags,
          summary: 'Change your own password; every session ends and a new token is returned',
          body: PasswordChangeBody,
          response: { 200: envelopeSchema(payloadOf('AuthToken', authTokenSchema)) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        await users.changePassword(checkedBody(request, PasswordChangeBody), principal);
        return success(
          'AuthToken',
          await auth.issue(principal.userId),
          'Password changed; other sessions were signed out',
        );
      },
    );
  };
}
