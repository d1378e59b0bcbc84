import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import {
  createdTargetSchema,
  deliverySchema,
  NotificationTargetBody,
  notificationTargetSchema,
  TargetIdParams,
} from './notification.api.js';
import type { NotificationService } from './notification.service.js';

const tags = ['notifications'];
const KEY = 'NotificationTarget';
const LIST_KEY = 'ArrayList<NotificationTarget>';
const DELIVERIES_KEY = 'ArrayList<NotificationDelivery>';

/**
 * DECISIONS.md §15: notification targets (ADMIN only, permissions.ts), as the other entities are —
 * POST and PUT with the body, DELETE with `{id}` — plus each target's deliveries and a test notice.
 */
export function notificationRoutes(service: NotificationService) {
  return (app: FastifyInstance): void => {
    const one = envelopeSchema(payloadOf(KEY, notificationTargetSchema));
    const created = envelopeSchema(payloadOf(KEY, createdTargetSchema));
    app.get(
      '/notification-target',
      {
        schema: {
          tags,
          summary: 'List notification targets (ADMIN)',
          response: { 200: envelopeSchema(payloadOf(LIST_KEY, Type.Array(notificationTargetSchema))) },
        },
      },
      async () => success(LIST_KEY, await service.list()),
    );
    app.get<{ Params: TargetIdParams }>(
      '/notification-target/:id',
      {
        schema: {
          tags,
          summary: 'One notification target (ADMIN)',
          params: TargetIdParams,
          response: { 200: one },
        },
      },
      async (request) => success(KEY, await service.get(request.params.id)),
    );
    app.post(
      '/notification-target',
      {
        schema: {
          tags,
          summary: "Create a notification target (ADMIN); a webhook's secret is answered this once",
          body: NotificationTargetBody,
          response: { 200: created },
        },
      },
      async (request) =>
        success(
          KEY,
          await service.create(checkedBody(request, NotificationTargetBody), principalOf(request)),
        ),
    );
    app.put(
      '/notification-target',
      {
        schema: {
          tags,
          summary:
            'Update a notification target (ADMIN); one that becomes a webhook is answered its new secret',
          body: NotificationTargetBody,
          response: { 200: created },
        },
      },
      async (request) => success(KEY, await service.update(checkedBody(request, NotificationTargetBody))),
    );
    app.delete(
      '/notification-target',
      {
        schema: {
          tags,
          summary: 'Delete a notification target by id, with its deliveries (ADMIN)',
          body: IdBody,
          response: { 200: envelopeSchema() },
        },
      },
      async (request) => {
        await service.delete(checkedBody(request, IdBody));
        return emptySuccess();
      },
    );
    app.get<{ Params: TargetIdParams }>(
      '/notification-target/:id/deliveries',
      {
        schema: {
          tags,
          summary: "A notification target's deliveries, newest first, each with its attempts (ADMIN)",
          params: TargetIdParams,
          response: { 200: envelopeSchema(payloadOf(DELIVERIES_KEY, Type.Array(deliverySchema))) },
        },
      },
      async (request) => success(DELIVERIES_KEY, await service.deliveries(request.params.id)),
    );
    app.post<{ Params: TargetIdParams }>(
      '/notification-target/:id/test',
      {
        schema: {
          tags,
          summary: 'Send a test notice to the target now, once (ADMIN); answers the delivery and its attempt',
          params: TargetIdParams,
          response: { 200: envelopeSchema(payloadOf('Delivery', deliverySchema)) },
        },
      },
      async (request) => success('Delivery', await service.test(request.params.id)),
    );
  };
}
