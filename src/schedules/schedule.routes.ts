import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { IdBody } from '../shared/body-schema.js';
import { ScheduleBody, ScheduleIdParams, scheduleSchema } from './schedule.api.js';
import type { ScheduleService } from './schedule.service.js';
import type { Scheduler } from './scheduler.js';

const tags = ['schedules'];

/** Each app's scheduler, by the app's route table (the one object its route scopes share with it). */
const schedulers = new WeakMap<object, Scheduler>();

/**
 * The scheduler of an app built by app.ts (undefined for an app without schedules): acceptance tests
 * drive `fire(scheduleId, dueTime)` of two instances at once through it.
 */
export function schedulerOf(app: FastifyInstance): Scheduler | undefined {
  return schedulers.get(app.routeTable);
}
const ONE = 'Schedule';
const LIST = 'ArrayList<Schedule>';

/** DECISIONS.md §15; the service decides who may see and change which schedule. */
export function scheduleRoutes(schedules: ScheduleService, scheduler?: Scheduler) {
  return (app: FastifyInstance): void => {
    if (scheduler !== undefined) schedulers.set(app.routeTable, scheduler);
    const one = { 200: envelopeSchema(payloadOf(ONE, scheduleSchema)) };
    app.get(
      '/schedule',
      {
        schema: {
          tags,
          summary: 'List schedules (a curator sees those whose job is of a view they curate)',
          response: { 200: envelopeSchema(payloadOf(LIST, { type: 'array', items: scheduleSchema })) },
        },
      },
      async (request) => success(LIST, await schedules.list(principalOf(request))),
    );
    app.get<{ Params: Static<typeof ScheduleIdParams> }>(
      '/schedule/:id',
      { schema: { tags, summary: 'One schedule', params: ScheduleIdParams, response: one } },
      async (request) => success(ONE, await schedules.get(request.params.id, principalOf(request))),
    );
    app.post(
      '/schedule',
      {
        schema: {
          tags,
          summary: 'Create a schedule: the job (the body of POST /curation-job) starts at every due time',
          body: ScheduleBody,
          response: one,
        },
      },
      async (request) =>
        success(ONE, await schedules.create(checkedBody(request, ScheduleBody), principalOf(request))),
    );
    app.put(
      '/schedule',
      {
        schema: {
          tags,
          summary: 'Update a schedule by its id (enabled false pauses it)',
          body: ScheduleBody,
          response: one,
        },
      },
      async (request) =>
        success(ONE, await schedules.update(checkedBody(request, ScheduleBody), principalOf(request))),
    );
    app.delete(
      '/schedule',
      {
        schema: {
          tags,
          summary: 'Delete a schedule by id',
          body: IdBody,
          response: { 200: envelopeSchema() },
        },
      },
      async (request) => {
        await schedules.delete(checkedBody(request, IdBody), principalOf(request));
        return emptySuccess();
      },
    );
  };
}
