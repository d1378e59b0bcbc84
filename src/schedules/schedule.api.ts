import { Type } from '@sinclair/typebox';
import { curationJobSchema } from '../curation-jobs/curation-job.schema.js';
import { idParams, messages, OptionalId } from '../shared/body-schema.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_CRON_LENGTH = 200;
export const MAX_TIME_ZONE_LENGTH = 100;

/**
 * The body of `POST /schedule` and `PUT /schedule` (DECISIONS.md §15). `job` is the body of
 * `POST /curation-job`, checked by the curation jobs' own schema and service (messages under `job.<field>`).
 */
export const ScheduleBody = Type.Object(
  {
    id: OptionalId,
    name: Type.String({
      minLength: 1,
      maxLength: MAX_NAME_LENGTH,
      ...messages({
        required: 'A schedule requires a name',
        minlength: "A schedule's name must not be empty",
        maxlength: `A schedule's name must be at most ${MAX_NAME_LENGTH} characters long`,
        type: "A schedule's name must be a string",
      }),
    }),
    cron: Type.String({
      maxLength: MAX_CRON_LENGTH,
      description: '5 fields: minute hour day-of-month month day-of-week (minute granularity)',
      ...messages({
        required: 'A schedule requires a cron expression (5 fields, e.g. "0 3 * * *")',
        maxlength: `A schedule's cron must be at most ${MAX_CRON_LENGTH} characters long`,
        type: "A schedule's cron must be a string",
      }),
    }),
    timeZone: Type.Optional(
      Type.String({
        maxLength: MAX_TIME_ZONE_LENGTH,
        description: 'an IANA time zone such as Europe/Berlin; default UTC',
        ...messages({
          maxlength: `A schedule's timeZone must be at most ${MAX_TIME_ZONE_LENGTH} characters long`,
          type: "A schedule's timeZone must be an IANA time zone name such as Europe/Berlin",
        }),
      }),
    ),
    enabled: Type.Optional(
      Type.Boolean({
        description: 'default true; false pauses the schedule',
        ...messages({ type: "A schedule's enabled must be true or false" }),
      }),
    ),
    job: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'the body of POST /curation-job to start at every due time',
        ...messages({
          required: 'A schedule requires a job (the body of POST /curation-job)',
          type: "A schedule's job must be an object: the body of POST /curation-job",
        }),
      },
    ),
  },
  { description: 'A schedule to create (id null) or update (DECISIONS.md §15).' },
);

export const ScheduleIdParams = idParams('The schedule id must be a positive integer');

const nullableInteger = { type: ['integer', 'null'] };

/** The read model `Schedule`, keys in the wire order. */
export const scheduleSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    cron: { type: 'string' },
    timeZone: { type: 'string' },
    enabled: { type: 'boolean' },
    job: {
      type: 'object',
      additionalProperties: true,
      description: 'the body of POST /curation-job started at every due time',
      properties: {
        repositoryViewId: curationJobSchema.properties.repositoryViewId,
        contextUri: curationJobSchema.properties.contextUri,
        kind: curationJobSchema.properties.kind,
      },
    },
    nextRun: { ...nullableInteger, description: 'epoch milliseconds; null while paused' },
    lastRun: { ...nullableInteger, description: 'the last due time fired, epoch milliseconds' },
    lastJobId: nullableInteger,
    lastError: { type: ['string', 'null'], description: 'why the last firing started no job' },
    createdBy: { type: 'integer' },
  },
};
