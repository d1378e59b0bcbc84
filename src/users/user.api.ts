import type { JsonSchema } from '../http/schemas.js';
import { ASSIGNABLE_ROLES } from './user.js';

/** OpenAPI shapes of the user read models; the request bodies are in user.schema.ts. */
export const userSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    role: { type: 'string', enum: [...ASSIGNABLE_ROLES] },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
  },
};

export const credentialsSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(userSchema.properties as Record<string, unknown>),
    exp: { type: 'integer', description: 'token expiry, epoch milliseconds' },
  },
};

export const authTokenSchema: JsonSchema = {
  type: 'object',
  properties: {
    token: { type: 'string' },
    expiration: { type: 'integer', description: 'epoch milliseconds' },
  },
};
