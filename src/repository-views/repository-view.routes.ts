import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import { REPOSITORY_KINDS, REPOSITORY_VIEW_TYPES, type RepositoryView } from './repository-view.js';
import {
  RepositoryViewBody,
  RepositoryViewIdParameter,
  repositoryViewSchema,
} from './repository-view.schema.js';
import type { RepositoryViewService } from './repository-view.service.js';

const tags = ['repository views'];
const LIST_KEY = 'LinkedList';

/** One entry of GET /repository-view/types (describe-only: what REPOSITORY_VIEW_TYPES holds). */
const repositoryViewTypeSchema = Type.Object({
  value: Type.Union(REPOSITORY_KINDS.map((kind) => Type.Literal(kind))),
  gloss: Type.String(),
  versioning: Type.Boolean(),
  verifying: Type.Boolean(),
  transacting: Type.Boolean(),
  queryable: Type.Boolean(),
  fixity: Type.Boolean(),
});

const IdParams = Type.Object({ id: RepositoryViewIdParameter });

/** Interface §4.3 (DECISIONS.md §6). */
export function repositoryViewRoutes(views: RepositoryViewService) {
  return (app: FastifyInstance): void => {
    const one = envelopeSchema(payloadOf('RepositoryView', repositoryViewSchema));
    const present = async (view: RepositoryView) =>
      success('RepositoryView', (await views.present([view]))[0]);

    app.get(
      '/repository-view',
      {
        schema: {
          tags,
          summary: 'List views (a curator sees only theirs)',
          response: {
            200: envelopeSchema(payloadOf(LIST_KEY, { type: 'array', items: repositoryViewSchema })),
          },
        },
      },
      async (request) => success(LIST_KEY, await views.present(await views.list(principalOf(request)))),
    );
    app.get(
      '/repository-view/types',
      {
        schema: {
          tags,
          summary: 'Supported repository types and their features',
          response: {
            200: envelopeSchema(payloadOf('ArrayList<HashMap>', Type.Array(repositoryViewTypeSchema))),
          },
        },
      },
      () => success('ArrayList<HashMap>', REPOSITORY_VIEW_TYPES),
    );
    app.get<{ Params: Static<typeof IdParams> }>(
      '/repository-view/:id',
      {
        schema: {
          tags,
          summary: 'One view',
          params: IdParams,
          response: { 200: one },
        },
      },
      async (request) => present(await views.get(request.params.id, principalOf(request))),
    );
    app.post(
      '/repository-view',
      {
        schema: {
          tags,
          summary: 'Create a view (ADMIN)',
          body: RepositoryViewBody,
          response: { 200: one },
        },
      },
      async (request) =>
        present(await views.create(checkedBody(request, RepositoryViewBody), principalOf(request))),
    );
    app.put(
      '/repository-view',
      {
        schema: {
          tags,
          summary: 'Update a view (ADMIN, or a curator of it)',
          body: RepositoryViewBody,
          response: { 200: one },
        },
      },
      async (request) =>
        present(await views.update(checkedBody(request, RepositoryViewBody), principalOf(request))),
    );
    app.delete(
      '/repository-view',
      {
        schema: {
          tags,
          summary: 'Delete a view by id (ADMIN)',
          body: IdBody,
          response: { 200: envelopeSchema() },
        },
      },
      async (request) => {
        await views.delete(checkedBody(request, IdBody));
        return emptySuccess();
      },
    );
  };
}
