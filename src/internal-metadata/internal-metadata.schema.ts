import { Type, type Static } from '@sinclair/typebox';
import { messages, Nullable, OptionalId } from '../shared/body-schema.js';

/**
 * The InternalMetadata body of interface §2 with the limits and messages of sage-operators.md §2, once:
 * Fastify validates it, OpenAPI documents it, the service receives its type.
 */
export const InternalMetadataBody = Type.Object({
  id: OptionalId,
  gloss: Type.String({
    minLength: 2,
    maxLength: 50,
    description: 'label text',
    ...messages({
      required: 'A internal metadatum requires a gloss',
      minlength: 'A internal metadatum gloss must be at least 2 characters',
      maxlength: 'A internal metadatum gloss must be no more than 50 characters',
      type: 'A internal metadatum gloss must be a string',
    }),
  }),
  field: Type.String({
    minLength: 2,
    maxLength: 50,
    description: 'field key, unique',
    ...messages({
      required: 'A internal metadatum requires a field',
      minlength: 'A internal metadatum field must be at least 2 characters',
      maxlength: 'A internal metadatum field must be no more than 50 characters',
      type: 'A internal metadatum field must be a string',
    }),
  }),
  // null or missing means false, as the original's primitive boolean did; anything else is never coerced.
  required: Type.Optional(
    Nullable(
      Type.Boolean({
        default: false,
        ...messages({ type: 'A internal metadatum required flag must be true or false' }),
      }),
    ),
  ),
});

export type InternalMetadataBody = Static<typeof InternalMetadataBody>;
