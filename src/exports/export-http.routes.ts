import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import type { JobExports } from '../curation-jobs/work/job-work.js';
import type { Principal } from '../auth/roles.js';
import type { AppPart } from '../http/app-part.js';
import { serviceAgent } from '../audit/premis/service-agent.js';
import { BagExports } from './bag-export.js';
import { bagDownloadRoutes } from './bag-download.routes.js';
import type { BagLedger } from './bag-premis.js';
import { ExportFileStore } from './export-files.store.js';

export interface ExportPartDependencies {
  readonly db: Kysely<Database>;
  readonly config: Pick<Config, 'dataDir' | 'organization'>;
  /** Curation jobs: the reads the download checks permission with, and where the bag writer is registered. */
  readonly jobs: {
    readonly service: { get(id: number, caller: Principal): Promise<CurationJob> };
    useExports(writer: JobExports): void;
  };
  /** The audit ledger, whose events on the scope become the bag's premis.xml. */
  readonly ledger: BagLedger;
}

/**
 * Export packages (DECISIONS.md §15, issue 31): EXPORT curation jobs write BagIt bags under
 * `<dataDir>/exports/<jobId>/` (the bag writer is registered with the job runner here), and
 * GET /curation-job/{id}/download streams them. Bags are not deleted with their jobs.
 */
export function exportPart(deps: ExportPartDependencies): AppPart {
  const files = new ExportFileStore(deps.db);
  const agent = serviceAgent();
  const exports = new BagExports(files, deps.ledger, {
    dataDir: deps.config.dataDir,
    organization: deps.config.organization,
    agent: `${agent.name} ${agent.version}`,
  });
  deps.jobs.useExports(exports);
  return {
    routes: [
      bagDownloadRoutes({
        job: (id, caller) => deps.jobs.service.get(id, caller),
        bagDirectory: (jobId) => exports.bagDirectory(jobId),
        payload: (jobId) => pathsOf(files.files(jobId)),
      }),
    ],
  };
}

async function* pathsOf(files: AsyncIterable<{ readonly path: string }>): AsyncGenerator<string> {
  for await (const file of files) yield file.path;
}
