import type { JsonSchema } from '../http/schemas.js';
import { REPOSITORY_KINDS } from './repository-view.js';

export const repositoryViewSchema: JsonSchema = {
  type: 'object',
  description:
    '`password` is write-only: answered as null; on PUT null keeps the stored one and "" clears it.',
  properties: {
    id: { type: ['integer', 'null'] },
    type: { type: 'string', enum: [...REPOSITORY_KINDS] },
    name: { type: 'string', minLength: 2, maxLength: 255 },
    rootUri: { type: 'string', format: 'uri' },
    username: { type: ['string', 'null'] },
    password: { type: ['string', 'null'] },
    schemas: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
    curators: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
    metadataPrefixes: { type: 'array', items: { type: 'string' }, readOnly: true },
  },
  required: ['type', 'name', 'rootUri'],
};
