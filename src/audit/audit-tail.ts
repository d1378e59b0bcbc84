import type { DataVersion } from '../db/data-version.js';
import type { ServiceEvent } from '../events/event-bus.js';
import type { EventHub } from '../events/event-hub.js';
import type { AuditEvent } from './audit-event.js';
import type { AuditStore } from './audit.store.js';

/** Events read per query while catching up (a burst of thousands is published page by page). */
const PAGE = 500;

/** How often the ledger is read anyway: another instance's appends, or a recorder that told nobody. */
export const AUDIT_TAIL_POLL_MS = 1000;

/** How long a wake-up waits for more appends before reading (they are read together). */
export const AUDIT_TAIL_BATCH_MS = 100;

/** The `audit` channel's event for one ledger event (DECISIONS.md §10, §14): administrators only. */
export function auditChannelEvent(event: AuditEvent): ServiceEvent {
  return {
    channel: 'audit',
    action: 'CREATE',
    id: String(event.id),
    message: `Audit event ${String(event.id)}: ${event.action}`,
    payload: { AuditEvent: event },
    audience: { kind: 'admin' },
  };
}

export interface AuditTailOptions {
  /**
   * The database's change signal, on PostgreSQL: it moves when another instance commits a change (most
   * audited changes write a notifying table), so its events are published without waiting for the poll.
   */
  readonly changes?: Pick<DataVersion, 'onChange'>;
  readonly pollMs?: number;
  readonly warn: (message: string) => void;
}

/**
 * Publishes the ledger's new events on this process's `/events` streams (channel `audit`). It reads what is
 * committed (`AuditStore.after`), so a rolled-back change is never published, and it publishes into the
 * local hub only, never the PostgreSQL bus: every instance tails the one ledger itself, so each event
 * reaches each instance's streams exactly once, whichever instance appended it. It reads when this process
 * appended (the store's listener), when the change signal moves, and every second; reads never overlap,
 * and a wake-up during a read reads again after it.
 */
export class AuditTail {
  private lastSeen = 0;
  private reading: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private batch: NodeJS.Timeout | undefined;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly store: Pick<AuditStore, 'after' | 'lastId' | 'listen'>,
    private readonly hub: Pick<EventHub, 'deliver'>,
    private readonly options: AuditTailOptions,
  ) {}

  /** From the ledger's last event at start-up: earlier events were published before, or never to anyone. */
  async start(): Promise<void> {
    this.lastSeen = await this.store.lastId();
    this.unsubscribe.push(this.store.listen(this.wake));
    const stopChanges = this.options.changes?.onChange?.(this.wake);
    if (stopChanges !== undefined) this.unsubscribe.push(stopChanges);
    this.timer = setInterval(this.wake, this.options.pollMs ?? AUDIT_TAIL_POLL_MS);
    this.timer.unref();
  }

  /** Stops reading; a read under way finishes (its events are published) first. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.batch);
    for (const stop of this.unsubscribe.splice(0)) stop();
    await this.reading;
  }

  /**
   * Reads the ledger soon: within {@link AUDIT_TAIL_BATCH_MS}, so a burst of appends (every audited write
   * wakes the tail) costs one read, not one per write.
   */
  readonly wake = (): void => {
    if (this.stopped || this.batch !== undefined) return;
    this.batch = setTimeout(this.readNow, AUDIT_TAIL_BATCH_MS);
    this.batch.unref();
  };

  /** Reads the ledger now, or once the read under way ends. */
  private readonly readNow = (): void => {
    this.batch = undefined;
    if (this.stopped) return;
    if (this.reading !== undefined) {
      this.again = true;
      return;
    }
    this.reading = this.drain().finally(() => {
      this.reading = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.readNow();
      }
    });
  };

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const events = await this.store.after(this.lastSeen, PAGE);
        for (const event of events) {
          this.hub.deliver(auditChannelEvent(event));
          this.lastSeen = event.id;
        }
        if (events.length < PAGE || this.stopped) return;
      }
    } catch (error) {
      // The next wake-up (a second at most) tries again from the last event published.
      this.options.warn(
        `The audit channel could not read the ledger: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
