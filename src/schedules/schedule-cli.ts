import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { JobCliError, request, serverOf, tokenOf, type JobCliIo } from '../curation-jobs/job-cli.js';
import type { Schedule } from './schedule.js';

export const SCHEDULE_USAGE = `  scriptorium schedule list
      Lists the schedules you may see: id, name, cron, time zone, next run, last run and its job.
  scriptorium schedule add --name <text> --cron "<m h dom mon dow>" [--time-zone <IANA zone>] [--paused]
                           --job '<JSON body of POST /curation-job>' | --job @<file>
      Creates a schedule that starts the job at every due time, as you (e.g. --cron "0 3 1 * *"
      --time-zone Europe/Berlin --job '{"repositoryViewId":1,"contextUri":"","scope":"SUBTREE","kind":"FIXITY"}').
  scriptorium schedule remove <schedule id>
      Deletes a schedule. Schedule commands talk to the running service like the job commands.`;

/** Epoch ms as ISO 8601 UTC to the minute, or "-". */
function when(time: number | null): string {
  return time === null ? '-' : `${new Date(time).toISOString().slice(0, 16)}Z`;
}

export function scheduleLine(schedule: Schedule): string {
  const last =
    schedule.lastRun === null
      ? 'never'
      : `${when(schedule.lastRun)} ${schedule.lastJobId === null ? `(no job: ${schedule.lastError ?? 'unknown'})` : `(job ${schedule.lastJobId})`}`;
  return [
    `${schedule.id}`,
    schedule.name,
    schedule.cron,
    schedule.timeZone,
    schedule.enabled ? `next ${when(schedule.nextRun)}` : 'paused',
    `last ${last}`,
  ].join('\t');
}

/** `--job`: the JSON text itself, or `@file` naming a file that holds it. */
async function jobBody(text: string): Promise<unknown> {
  let json = text;
  if (text.startsWith('@')) {
    try {
      json = await readFile(text.slice(1), 'utf8');
    } catch (error) {
      throw new JobCliError(`--job: cannot read ${text.slice(1)}: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new JobCliError('--job must be the JSON body of POST /curation-job, or @file holding it');
  }
}

/** `scriptorium schedule …`; answers the process's exit code (0 done, 1 refused, 2 usage). */
export async function runScheduleCommand(argv: readonly string[], io: JobCliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      cron: { type: 'string' },
      'time-zone': { type: 'string' },
      paused: { type: 'boolean' },
      job: { type: 'string' },
      server: { type: 'string' },
      username: { type: 'string' },
    },
  });
  const [command, idText] = positionals;
  try {
    const base = serverOf(io, values.server);
    const call = async (method: string, path: string, body?: unknown) =>
      request(io.fetch, base, method, path, await tokenOf(io, base, values.username), body);
    if (command === 'list') {
      const schedules = (await call('GET', '/schedule')).payload['ArrayList<Schedule>'] as Schedule[];
      io.write(schedules.length === 0 ? 'No schedules\n' : `${schedules.map(scheduleLine).join('\n')}\n`);
      return 0;
    }
    if (command === 'add') {
      if (values.name === undefined || values.cron === undefined || values.job === undefined) {
        io.write(`schedule add needs --name, --cron and --job\n${SCHEDULE_USAGE}\n`);
        return 2;
      }
      const job = await jobBody(values.job);
      const created = (
        await call('POST', '/schedule', {
          name: values.name,
          cron: values.cron,
          timeZone: values['time-zone'] ?? 'UTC',
          enabled: values.paused !== true,
          job,
        })
      ).payload.Schedule as Schedule;
      io.write(`Created schedule ${created.id}: ${scheduleLine(created)}\n`);
      return 0;
    }
    if (command === 'remove') {
      const id = Number(idText);
      if (!Number.isSafeInteger(id) || id < 1) {
        io.write(`schedule remove needs a schedule id\n${SCHEDULE_USAGE}\n`);
        return 2;
      }
      await call('DELETE', '/schedule', { id });
      io.write(`Removed schedule ${id}\n`);
      return 0;
    }
    io.write(`${SCHEDULE_USAGE}\n`);
    return 2;
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
