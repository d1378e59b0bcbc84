import { Type, type Static } from '@sinclair/typebox';
import { Id, messages, Nullable } from '../shared/body-schema.js';

/**
 * The body of POST /operators/apply (DECISIONS.md §4), each limit and message written once. The count of
 * operators, the time zone's name and the view's existence are checked by the service.
 */
export const ApplyBody = Type.Object({
  document: Type.Record(
    Type.String(),
    // A single text value is accepted as a one-element list.
    Type.Union([Type.Array(Type.String()), Type.String()]),
    messages({
      required: 'A document is required',
      type: 'A document must be an object mapping each field to a list of text values',
    }),
  ),
  operators: Type.Array(Id, {
    description: 'operator ids, applied in this order',
    ...messages({
      required: 'A list of operator ids is required',
      type: 'Operators must be a list of operator ids (positive integers)',
    }),
  }),
  timeZone: Type.Optional(
    Nullable(
      Type.String({
        description: 'IANA zone for DATE_NORMALIZATION_OP; default UTC',
        ...messages({ type: 'A timeZone must be an IANA time zone name such as UTC or America/Chicago' }),
      }),
    ),
  ),
  repositoryViewId: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'view whose type APPLICATION_TYPE_OP writes',
        ...messages({ type: 'A repositoryViewId must be a positive integer' }),
      }),
    ),
  ),
});
export type ApplyBody = Static<typeof ApplyBody>;
