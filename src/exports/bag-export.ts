import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ResourceDescription } from '../repository-adapters/repository-adapter.js';
import type {
  JobExports,
  JobTarget,
  RunOutcome,
  RunRequest,
  RunSink,
} from '../curation-jobs/work/job-work.js';
import { scopeEntries, unlistable } from '../curation-jobs/work/scope-entries.js';
import { binaryFile, METADATA_FILE, resourceDirectory } from './bag-paths.js';
import { scopePremis, type BagLedger } from './bag-premis.js';
import { writeTagFiles } from './bag-tags.js';
import { writeDigesting } from './digesting-file.js';
import type { ExportFile, ExportFileStore } from './export-files.store.js';
import { heldDigest } from './repository-digest.js';
import { resourceTurtle } from './resource-turtle.js';

export interface BagExportSettings {
  /** The service's data directory: bags are written to `<dataDir>/exports/<jobId>/`. */
  readonly dataDir: string;
  /** bag-info.txt's Source-Organization. */
  readonly organization: string;
  /** bag-info.txt's Bag-Software-Agent ("Scriptorium <version>"). */
  readonly agent: string;
  readonly now?: () => Date;
}

/** Rows of export_files written in one statement. */
const ROW_BATCH = 200;

/** What writing one resource's files came to. */
type Written =
  | { readonly files: readonly ExportFile[]; readonly undigested: boolean }
  | { readonly skipped: true }
  | { readonly error: string };

/**
 * The RUN phase of an EXPORT job (DECISIONS.md §15): walks the scope (the same walk every kind uses,
 * scope-entries.ts) and writes each resource's files into the job's bag as the walk describes it, in the
 * walk's slot (at most `concurrency` requests and files at once). Each file is complete on disk before its
 * row is recorded (rows go in batches, and all of them once the walk stops), so a resumed job skips what
 * the rows list and writes again what they do not, whatever its items say. When
 * the walk ends the tag files are written. A resource that cannot be read, or a binary whose bytes do not
 * match the digest the repository holds, fails the job naming it, and the partial bag is removed: a bag
 * never holds bytes that do not match their manifest, nor misses a resource of its scope.
 */
export class BagExports implements JobExports {
  constructor(
    private readonly files: ExportFileStore,
    private readonly ledger: BagLedger,
    private readonly settings: BagExportSettings,
  ) {}

  /** Where a job's bag is (whether or not it exists). */
  bagDirectory(jobId: number): string {
    return path.join(this.settings.dataDir, 'exports', String(jobId));
  }

  private partialDirectory(jobId: number): string {
    return path.join(this.settings.dataDir, 'exports', `${jobId}.partial`);
  }

  async run(jobId: number, request: RunRequest, target: JobTarget, sink: RunSink): Promise<RunOutcome> {
    const noSearch = unlistable(target, request.scope);
    if (noSearch !== undefined) return { ended: 'FAILED', message: noSearch };
    const outcome = await this.walk(jobId, request, target, sink);
    if (outcome.ended !== 'FAILED') return outcome;
    // Nothing of a failed bag is kept: neither its files nor its rows.
    await this.remove(jobId);
    return outcome;
  }

  /** Removes a job's bag and what was recorded of it. */
  async remove(jobId: number): Promise<void> {
    await rm(this.bagDirectory(jobId), { recursive: true, force: true });
    await rm(this.partialDirectory(jobId), { recursive: true, force: true });
    await this.files.forget(jobId);
  }

  private async walk(
    jobId: number,
    request: RunRequest,
    target: JobTarget,
    sink: RunSink,
  ): Promise<RunOutcome> {
    const recorded = await this.files.recordedResources(jobId);
    // Rows of files complete on disk, recorded a batch at a time (one commit per file would cost a
    // database sync each); whatever a stop leaves unrecorded is written again by the resumed run.
    const pending: ExportFile[] = [];
    const flush = () => this.files.record(jobId, pending.splice(0));
    let undigested = 0;
    const walk = scopeEntries(target, request, {
      concurrency: request.concurrency,
      found: (count) => {
        sink.found(count);
      },
      then: (description) =>
        recorded.has(description.uri)
          ? Promise.resolve<Written>({ skipped: true })
          : this.writeResource(jobId, request.contextUri, target, description, pending),
    });
    let seen = 0;
    try {
      for await (const entry of walk) {
        if (sink.cancelled()) return { ended: 'CANCELLED' };
        seen += 1;
        if (seen > request.maxResources)
          return {
            ended: 'FAILED',
            message: `The scope holds more than ${request.maxResources} resources (the limit of a curation job); no bag was kept`,
          };
        if ('error' in entry)
          return {
            ended: 'FAILED',
            message: `${entry.uri} could not be read: ${entry.error}; no bag was kept`,
          };
        const written = entry.extra;
        if ('error' in written) return { ended: 'FAILED', message: `${written.error}; no bag was kept` };
        if ('files' in written && written.undigested) undigested += 1;
        if (pending.length >= ROW_BATCH) await flush();
        if (!sink.isDone(entry.uri))
          await sink.record({ kind: 'EXPORT', contextUri: entry.uri, error: null });
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { ended: 'FAILED', message: `The scope of ${request.contextUri} could not be exported: ${why}` };
    } finally {
      // After the walk has ended (its writes in flight included): what is complete is recorded, so a
      // stopped run's successor skips it.
      await flush();
    }
    return this.finish(jobId, request.contextUri, target, undigested);
  }

  /** Writes the tag files of a bag whose payload is complete; answers the job's outcome. */
  private async finish(
    jobId: number,
    scopeUri: string,
    target: JobTarget,
    undigested: number,
  ): Promise<RunOutcome> {
    const bag = this.bagDirectory(jobId);
    try {
      const viewId = await this.files.viewOfJob(jobId);
      const premis = await scopePremis(this.ledger, { id: viewId, rootUri: target.rootUri }, scopeUri);
      const { octets, count } = await writeTagFiles(
        bag,
        this.files.files(jobId),
        {
          organization: this.settings.organization,
          date: (this.settings.now ?? (() => new Date()))(),
          identifier: scopeUri,
          agent: this.settings.agent,
        },
        premis,
      );
      await rm(this.partialDirectory(jobId), { recursive: true, force: true });
      const unchecked =
        undigested === 0
          ? ''
          : `; ${undigested} ${undigested === 1 ? 'binary' : 'binaries'} not compared with a digest: the repository holds none for ${undigested === 1 ? 'it' : 'them'}`;
      return { ended: 'COMPLETE', note: `a bag of ${count} files, ${octets} octets${unchecked}` };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { ended: 'FAILED', message: `The bag could not be finished: ${why}` };
    }
  }

  /** Writes one resource's files (metadata; a binary's bytes too) and records them. */
  private async writeResource(
    jobId: number,
    scopeUri: string,
    target: JobTarget,
    description: ResourceDescription,
    pending: ExportFile[],
  ): Promise<Written> {
    const { uri } = description;
    const bag = this.bagDirectory(jobId);
    const temporary = () => path.join(this.partialDirectory(jobId), randomUUID());
    try {
      const directory = resourceDirectory(uri, scopeUri, target.rootUri);
      const metadataPath = `${directory}/${METADATA_FILE}`;
      const turtle = resourceTurtle(description.quads, target.schemas);
      const metadata = await writeDigesting(
        Readable.from([Buffer.from(turtle, 'utf8')]),
        path.join(bag, metadataPath),
        temporary(),
      );
      const files: ExportFile[] = [{ path: metadataPath, contextUri: uri, ...metadata }];
      let undigested = false;
      if (description.isBinary) {
        const held = heldDigest(description.quads);
        undigested = held === undefined;
        const bytesPath = binaryFile(directory, uri);
        const { content } = await target.adapter.downloadBinary(uri);
        const written = await writeDigesting(
          content,
          path.join(bag, bytesPath),
          temporary(),
          held?.algorithm,
        );
        if (held !== undefined && written.also !== held.hex)
          return {
            error: `The bytes of ${uri} read from the repository do not match the ${held.algorithm} digest it holds (${held.hex}, read ${written.also ?? 'nothing'})`,
          };
        files.push({
          path: bytesPath,
          contextUri: uri,
          size: written.size,
          sha256: written.sha256,
          sha512: written.sha512,
        });
      }
      pending.push(...files);
      return { files, undigested };
    } catch (error) {
      return {
        error: `${uri} could not be exported: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
}
