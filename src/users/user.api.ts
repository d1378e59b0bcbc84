import type { JsonSchema } from '../http/schemas.js';
import { ASSIGNABLE_ROLES } from './user.js';

export const userSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string', minLength: 2, maxLength: 100 },
    role: { type: 'string', enum: [...ASSIGNABLE_ROLES] },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
  },
};

export const newUserSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(userSchema.properties as Record<string, unknown>),
    id: { type: 'null' },
    password: { type: 'string', minLength: 8, maxLength: 200 },
  },
  required: ['username', 'password', 'role'],
};

export const credentialsSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(userSchema.properties as Record<string, unknown>),
    exp: { type: 'integer', description: 'token expiry, epoch milliseconds' },
  },
};

export const passwordChangeSchema: JsonSchema = {
  type: 'object',
  properties: { currentPassword: { type: 'string' }, newPassword: { type: 'string', minLength: 8 } },
  required: ['currentPassword', 'newPassword'],
};

export const loginSchema: JsonSchema = {
  type: 'object',
  properties: { username: { type: 'string' }, password: { type: 'string' } },
  required: ['username', 'password'],
};

export const authTokenSchema: JsonSchema = {
  type: 'object',
  properties: {
    token: { type: 'string' },
    expiration: { type: 'integer', description: 'epoch milliseconds' },
  },
};
