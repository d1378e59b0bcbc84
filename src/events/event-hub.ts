import type { ServiceEvent } from './event-bus.js';

/** An event as this instance delivers it: with the id `GET /events` sends as the SSE `id:`. */
export interface DeliveredEvent {
  readonly id: number;
  readonly event: ServiceEvent;
}

export type EventListener = (delivered: DeliveredEvent) => void;

/** How many delivered events are kept for `Last-Event-ID`: the last `maxEvents`, none older than `maxAgeMs`. */
export interface ReplayWindow {
  readonly maxEvents: number;
  readonly maxAgeMs: number;
}

export const DEFAULT_REPLAY_WINDOW: ReplayWindow = { maxEvents: 1_000, maxAgeMs: 5 * 60_000 };

export interface Subscription {
  /** The kept events after the id the subscriber last saw, oldest first (empty without an id). */
  readonly missed: readonly DeliveredEvent[];
  unsubscribe(): void;
}

/**
 * This instance's fan-out: every event, this instance's or (on PostgreSQL) another's, passes here once,
 * gets its id and reaches every listener. Ids increase within the instance; they start from the clock
 * (microseconds since the epoch), so an id sent before a restart, or by another instance behind the same
 * load balancer, is still comparable here to the precision of the clocks: a reconnecting client is
 * replayed what this instance kept after it.
 */
export class EventHub {
  private lastId = 0;
  private readonly kept: { readonly at: number; readonly delivered: DeliveredEvent }[] = [];
  private readonly listeners = new Set<EventListener>();
  /** The listeners that are clients' event streams (the rest are the instance's own followers). */
  private readonly clients = new Set<EventListener>();

  constructor(
    private readonly window: ReplayWindow = DEFAULT_REPLAY_WINDOW,
    private readonly now: () => number = () => Date.now(),
  ) {}

  deliver(event: ServiceEvent): DeliveredEvent {
    const at = this.now();
    this.lastId = Math.max(this.lastId + 1, at * 1000);
    const delivered: DeliveredEvent = { id: this.lastId, event };
    this.kept.push({ at, delivered });
    this.prune(at);
    for (const listener of this.listeners) {
      try {
        listener(delivered);
      } catch {
        // One subscriber's failure must not keep the event from the others (streams handle their own).
      }
    }
    return delivered;
  }

  /**
   * Registers the listener and answers what it missed after `afterId`, in the same turn, so that no
   * event falls between the replay and the live ones, and none comes twice.
   */
  subscribe(listener: EventListener, afterId?: number, options: { client?: boolean } = {}): Subscription {
    this.prune(this.now());
    const missed =
      afterId === undefined
        ? []
        : this.kept.filter((entry) => entry.delivered.id > afterId).map((entry) => entry.delivered);
    this.listeners.add(listener);
    if (options.client === true) this.clients.add(listener);
    return {
      missed,
      unsubscribe: () => {
        this.listeners.delete(listener);
        this.clients.delete(listener);
      },
    };
  }

  /** How many listeners are registered (tests, and the streams closed on shutdown). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** How many clients' event streams are connected (the metrics' gauge, DECISIONS.md §17). */
  get clientCount(): number {
    return this.clients.size;
  }

  private prune(now: number): void {
    const oldest = now - this.window.maxAgeMs;
    let drop = Math.max(0, this.kept.length - this.window.maxEvents);
    while (drop < this.kept.length && (this.kept[drop]?.at ?? now) < oldest) drop++;
    if (drop > 0) this.kept.splice(0, drop);
  }
}
