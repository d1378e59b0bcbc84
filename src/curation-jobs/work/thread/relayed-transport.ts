import { Readable } from 'node:stream';
import type {
  TransportRequest,
  TransportResponse,
  UpstreamTransport,
} from '../../../repository-adapters/in-process-repository.js';
import { errorOf, type FromWorker, type RelayAnswer } from './thread-protocol.js';

type Post = (message: FromWorker) => void;

interface Pending {
  readonly resolve: (response: TransportResponse) => void;
  readonly reject: (error: Error) => void;
  body?: Readable;
}

/**
 * The worker's side of requests to this process's own `/rest/`: the worker has no Fastify app, so each
 * request is relayed to the service's thread, which answers it in process exactly as it answers its own
 * adapters (`InProcessRepository`: same plugin, same authentication, same timeouts). The body comes back
 * one chunk per pull, so a reader that stops (a binary's GET read for its head only) stops the relay.
 */
export class RelayedTransport {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly post: Post) {}

  /** The transport for one run's adapter; `runId` tells the service's thread whose root it is. */
  forRun(runId: number): UpstreamTransport {
    return { request: (request) => this.request(runId, request) };
  }

  private request(runId: number, request: TransportRequest): Promise<TransportResponse> {
    const requestId = this.nextId++;
    return new Promise<TransportResponse>((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      this.post({ type: 'request', runId, requestId, request });
    });
  }

  /** Handles one of the service thread's answers. */
  receive(message: RelayAnswer): void {
    switch (message.type) {
      case 'head': {
        const pending = this.pending.get(message.requestId);
        if (pending === undefined) return;
        const body = this.bodyOf(message.requestId);
        pending.body = body;
        pending.resolve({ statusCode: message.statusCode, headers: message.headers, body });
        return;
      }
      case 'chunk':
        this.pending.get(message.requestId)?.body?.push(Buffer.from(message.data));
        return;
      case 'end': {
        const pending = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        pending?.body?.push(null);
        return;
      }
      case 'fail': {
        const pending = this.pending.get(message.requestId);
        this.pending.delete(message.requestId);
        const error = errorOf(message.error);
        if (pending?.body === undefined) pending?.reject(error);
        else pending.body.destroy(error);
        return;
      }
    }
  }

  private bodyOf(requestId: number): Readable {
    return new Readable({
      read: () => {
        this.post({ type: 'pull', requestId });
      },
      destroy: (error, callback) => {
        // Stopped before the end: the service's thread stops reading (and closes the handler's response).
        if (this.pending.delete(requestId)) this.post({ type: 'abort', requestId });
        callback(error);
      },
    });
  }
}
