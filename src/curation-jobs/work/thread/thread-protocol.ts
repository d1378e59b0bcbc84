import type { DetectedDialect } from '../../../shared/fedora-dialect.js';
import type { AdapterView } from '../../../repository-adapters/create-adapter.js';
import type { TransportRequest } from '../../../repository-adapters/in-process-repository.js';
import type { Schema } from '../../../schemas/schema.js';
import { decodeTriples, encodeTriples } from '../../stored-triples.js';
import type { RunItem, RunOutcome, RunRequest, StoredChange, WriteOutcome } from '../job-work.js';

/**
 * The messages between the service's thread and the curation jobs' worker thread (`threaded-job-work.ts`
 * on the service's side, `job-work.worker.ts` in the worker). Everything here survives structured clone:
 * plain data only, triples as their stored JSON text (RDF/JS terms are class instances).
 */

/** What the worker needs to open the view's adapter itself (an AdapterView without its callback). */
export type WorkerConnection = Omit<AdapterView, 'onDetected'> & {
  /** Whether the view's detection result is wanted back (the view has no pinned dialect). */
  readonly reportsDetection: boolean;
  /** The root is this process's own `/rest/`: its requests are relayed to the service's thread. */
  readonly inProcess: boolean;
};

interface RunStart {
  readonly runId: number;
  readonly connection: WorkerConnection;
  readonly schemas: readonly Schema[];
  readonly rootUri: string;
}

/** One change as it crosses threads. */
export interface WireChange {
  readonly contextUri: string;
  readonly etag: string | null;
  readonly remove: string;
  readonly add: string;
  readonly uncertain?: boolean;
}

export type WireItem =
  | (Omit<Extract<RunItem, { kind: 'MAPPING' }>, 'removed' | 'added'> & {
      readonly removed: string;
      readonly added: string;
    })
  | Extract<RunItem, { kind: 'FIXITY' }>;

export type WriteSinkCall = 'writing' | 'written' | 'notWritten';

/** Service thread → worker. */
export type ToWorker = RunControl | RelayAnswer;

/** Service thread → worker: a run's start, cancel, and the answers to its sink calls. */
export type RunControl =
  | (RunStart & {
      readonly type: 'run';
      readonly request: RunRequest;
      /** Resources an earlier attempt recorded (resume). */
      readonly done: readonly string[];
    })
  | (RunStart & {
      readonly type: 'write';
      readonly changes: readonly WireChange[];
      readonly mode: 'APPLY' | 'UNDO';
      readonly concurrency: number;
    })
  | { readonly type: 'cancel'; readonly runId: number }
  /** A sink call of the worker's ended; `error` when it failed. */
  | { readonly type: 'ack'; readonly runId: number; readonly seq: number; readonly error?: string };

/** Relayed in-process requests: the answer's head, then its body chunk by chunk as the worker pulls. */
export type RelayAnswer =
  | {
      readonly type: 'head';
      readonly requestId: number;
      readonly statusCode: number;
      readonly headers: Record<string, string | string[] | undefined>;
    }
  | { readonly type: 'chunk'; readonly requestId: number; readonly data: Uint8Array }
  | { readonly type: 'end'; readonly requestId: number }
  | { readonly type: 'fail'; readonly requestId: number; readonly error: WireError };

/** Worker → service thread. */
export type FromWorker = RunReport | RelayRequest;

/** Worker → service thread: what a run found, its sink calls, and how it ended. */
export type RunReport =
  | { readonly type: 'found'; readonly runId: number; readonly count: number }
  | { readonly type: 'record'; readonly runId: number; readonly seq: number; readonly item: WireItem }
  | {
      readonly type: 'sink';
      readonly runId: number;
      readonly seq: number;
      readonly call: WriteSinkCall;
      readonly uris: readonly string[];
    }
  | { readonly type: 'detected'; readonly runId: number; readonly dialect: DetectedDialect }
  | { readonly type: 'ran'; readonly runId: number; readonly outcome: RunOutcome }
  | { readonly type: 'wrote'; readonly runId: number; readonly outcome: WriteOutcome }
  /** The run threw (not an outcome): the service's thread rethrows it. */
  | { readonly type: 'threw'; readonly runId: number; readonly error: WireError };

/** Worker → service thread: requests to relay, and the reading of their bodies. */
export type RelayRequest =
  | {
      readonly type: 'request';
      readonly runId: number;
      readonly requestId: number;
      readonly request: TransportRequest;
    }
  /** The worker wants the next body chunk. */
  | { readonly type: 'pull'; readonly requestId: number }
  /** The worker stopped reading the body (it needed only the head, or failed). */
  | { readonly type: 'abort'; readonly requestId: number };

const RELAY_ANSWERS: ReadonlySet<string> = new Set(['head', 'chunk', 'end', 'fail']);
const RELAY_REQUESTS: ReadonlySet<string> = new Set(['request', 'pull', 'abort']);

export function isRelayAnswer(message: ToWorker): message is RelayAnswer {
  return RELAY_ANSWERS.has(message.type);
}

export function isRelayRequest(message: FromWorker): message is RelayRequest {
  return RELAY_REQUESTS.has(message.type);
}

export interface WireError {
  readonly message: string;
  /** Kept for undici-style codes (`UND_ERR_HEADERS_TIMEOUT`, `ECONNREFUSED`) the client maps to messages. */
  readonly code?: string;
}

export function wireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? { message: error.message, code } : { message: error.message };
}

export function errorOf(wire: WireError): Error {
  const error = new Error(wire.message);
  return wire.code === undefined ? error : Object.assign(error, { code: wire.code });
}

export function toWireItem(item: RunItem): WireItem {
  if (item.kind === 'FIXITY') return item;
  return { ...item, removed: encodeTriples(item.removed), added: encodeTriples(item.added) };
}

export function fromWireItem(item: WireItem): RunItem {
  if (item.kind === 'FIXITY') return item;
  return { ...item, removed: decodeTriples(item.removed), added: decodeTriples(item.added) };
}

export function toWireChange(change: StoredChange): WireChange {
  return {
    contextUri: change.contextUri,
    etag: change.etag,
    remove: encodeTriples(change.remove),
    add: encodeTriples(change.add),
    ...(change.uncertain === undefined ? {} : { uncertain: change.uncertain }),
  };
}

export function fromWireChange(change: WireChange): StoredChange {
  return {
    contextUri: change.contextUri,
    etag: change.etag,
    remove: decodeTriples(change.remove),
    add: decodeTriples(change.add),
    ...(change.uncertain === undefined ? {} : { uncertain: change.uncertain }),
  };
}
