import { Type, type Static } from '@sinclair/typebox';
import { Id, idParams, messages, Nullable, OptionalId } from '../shared/body-schema.js';
import { DELIVERY_STATES, NOTIFICATION_EVENTS, TARGET_KINDS } from './notification.js';

/**
 * The NotificationTarget body and answers of DECISIONS.md §15, each limit and message written once:
 * Fastify validates with it, OpenAPI documents it, the service receives its type. What the URL or the
 * address must look like for the kind, and the view's existence, are the service's checks.
 */
const Event = Type.Union(
  NOTIFICATION_EVENTS.map((event) => Type.Literal(event)),
  messages({ type: `A notification target's events must each be one of ${NOTIFICATION_EVENTS.join(', ')}` }),
);

const properties = {
  id: OptionalId,
  name: Type.String({
    minLength: 2,
    maxLength: 255,
    ...messages({
      required: 'A notification target requires a name',
      minlength: "A notification target's name must be at least 2 characters long",
      maxlength: "A notification target's name must be at most 255 characters long",
      type: "A notification target's name must be a string",
    }),
  }),
  kind: Type.Union(
    TARGET_KINDS.map((kind) => Type.Literal(kind)),
    messages({
      required: 'A notification target requires a kind',
      type: `A notification target's kind must be one of ${TARGET_KINDS.join(', ')}`,
    }),
  ),
  url: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        description: 'WEBHOOK: an absolute http(s) URL without credentials',
        ...messages({
          maxlength: "A notification target's url must be at most 2000 characters long",
          type: "A notification target's url must be a string",
        }),
      }),
    ),
  ),
  address: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 320,
        description: 'EMAIL: the address notices are sent to',
        ...messages({
          maxlength: "A notification target's address must be at most 320 characters long",
          type: "A notification target's address must be a string",
        }),
      }),
    ),
  ),
  // (At least one: the service's check, which words it as "requires".)
  events: Type.Array(Event, {
    maxItems: NOTIFICATION_EVENTS.length,
    ...messages({
      required: 'A notification target requires at least one event',
      type: `A notification target's events must be a list of ${NOTIFICATION_EVENTS.join(', ')}`,
    }),
  }),
  repositoryViewId: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: "only this view's jobs; null: every view's",
        ...messages({ type: "A notification target's repositoryViewId must be a positive integer" }),
      }),
    ),
  ),
};

export const NotificationTargetBody = Type.Object(properties, {
  description: 'WEBHOOK needs `url`, EMAIL needs `address`; the other is ignored.',
});
export type NotificationTargetBody = Static<typeof NotificationTargetBody>;

export const notificationTargetSchema = Type.Object({
  id: Id,
  name: Type.String(),
  kind: properties.kind,
  url: Nullable(Type.String()),
  address: Nullable(Type.String()),
  events: Type.Array(Event),
  repositoryViewId: Nullable(Type.Integer()),
  createdBy: Type.Integer(),
  created: Type.Integer(),
});

/** POST's answer (and PUT's when the target became a webhook): the signing secret, this once. */
export const createdTargetSchema = Type.Object({
  ...notificationTargetSchema.properties,
  secret: Type.Optional(
    Type.String({ description: "the webhook's signing secret: shown once, never answered again" }),
  ),
});

const attemptSchema = Type.Object({
  id: Type.Integer(),
  attempted: Type.Integer(),
  outcome: Type.Union([Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  status: Nullable(Type.Integer()),
  response: Nullable(Type.String()),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
});

export const deliverySchema = Type.Object({
  id: Type.Integer(),
  targetId: Type.Integer(),
  subjectKey: Type.String(),
  event: Type.Union([...NOTIFICATION_EVENTS, 'TEST' as const].map((event) => Type.Literal(event))),
  state: Type.Union(DELIVERY_STATES.map((state) => Type.Literal(state))),
  attempts: Type.Array(attemptSchema),
  nextAttempt: Nullable(Type.Integer()),
  created: Type.Integer(),
  finished: Nullable(Type.Integer()),
});

export const TargetIdParams = idParams('The notification target id must be a positive integer');
export type TargetIdParams = Static<typeof TargetIdParams>;
