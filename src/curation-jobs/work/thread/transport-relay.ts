import type { Readable } from 'node:stream';
import type {
  TransportRequest,
  UpstreamTransport,
} from '../../../repository-adapters/in-process-repository.js';
import { wireError, type RelayRequest, type ToWorker } from './thread-protocol.js';

type Post = (message: ToWorker, transfer?: ArrayBuffer[]) => void;

/** One answer's body being relayed: read one chunk per pull of the worker. */
interface Relayed {
  readonly body: Readable;
  /** Chunks read but not yet pulled, and whether the body ended after them. */
  readonly ready: Buffer[];
  ended: boolean;
  pulls: number;
}

/**
 * The service thread's side of `RelayedTransport`: answers the worker's requests for this process's own
 * `/rest/` with the in-process transport of the run's root. Only runs registered here (whose root the
 * service decided is its own) are answered; any other request fails, so the worker cannot use the relay
 * to reach anything its adapter could not.
 */
export class TransportRelay {
  private readonly transports = new Map<number, UpstreamTransport>();
  private readonly bodies = new Map<number, Relayed>();

  constructor(private readonly post: Post) {}

  open(runId: number, transport: UpstreamTransport): void {
    this.transports.set(runId, transport);
  }

  close(runId: number): void {
    this.transports.delete(runId);
  }

  /** Drops every body in flight (the worker is gone). */
  closeAll(): void {
    for (const relayed of this.bodies.values()) relayed.body.destroy();
    this.bodies.clear();
    this.transports.clear();
  }

  /** Handles one of the worker's relay messages. */
  receive(message: RelayRequest): void {
    switch (message.type) {
      case 'request':
        void this.answer(message.runId, message.requestId, message.request);
        return;
      case 'pull': {
        const relayed = this.bodies.get(message.requestId);
        if (relayed !== undefined) {
          relayed.pulls += 1;
          this.deliver(message.requestId, relayed);
        }
        return;
      }
      case 'abort':
        this.bodies.get(message.requestId)?.body.destroy();
        this.bodies.delete(message.requestId);
        return;
    }
  }

  private async answer(runId: number, requestId: number, request: TransportRequest): Promise<void> {
    const transport = this.transports.get(runId);
    if (transport === undefined) {
      this.post({ type: 'fail', requestId, error: { message: 'no in-process route for this run' } });
      return;
    }
    let response;
    try {
      response = await transport.request(request);
    } catch (error) {
      this.post({ type: 'fail', requestId, error: wireError(error) });
      return;
    }
    const relayed: Relayed = { body: response.body, ready: [], ended: false, pulls: 0 };
    this.bodies.set(requestId, relayed);
    response.body.on('data', (chunk: Buffer) => {
      relayed.ready.push(chunk);
      // Read ahead by one chunk at most: the worker's pulls set the pace.
      response.body.pause();
      this.deliver(requestId, relayed);
    });
    response.body.once('end', () => {
      relayed.ended = true;
      this.deliver(requestId, relayed);
    });
    response.body.once('error', (error) => {
      if (this.bodies.delete(requestId)) this.post({ type: 'fail', requestId, error: wireError(error) });
    });
    response.body.pause();
    this.post({ type: 'head', requestId, statusCode: response.statusCode, headers: response.headers });
  }

  /** Sends what the worker pulled and is ready; asks the body for more while pulls are left. */
  private deliver(requestId: number, relayed: Relayed): void {
    let chunk: Buffer | undefined;
    while (relayed.pulls > 0 && (chunk = relayed.ready.shift()) !== undefined) {
      relayed.pulls -= 1;
      // A copy of exactly the chunk's bytes, moved (not copied again) to the worker.
      const data = new Uint8Array(chunk);
      this.post({ type: 'chunk', requestId, data }, [data.buffer]);
    }
    if (relayed.ready.length === 0 && relayed.ended) {
      this.bodies.delete(requestId);
      this.post({ type: 'end', requestId });
      return;
    }
    if (relayed.pulls > 0 && relayed.ready.length === 0) relayed.body.resume();
  }
}
