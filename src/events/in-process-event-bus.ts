import type { EventBus, ServiceEvent } from './event-bus.js';
import type { EventHub } from './event-hub.js';
import { fitted } from './event-wire.js';

/** SQLite: one process serves the database, so its events stay in process (DECISIONS.md §10). */
export class InProcessEventBus implements EventBus {
  constructor(private readonly hub: EventHub) {}

  publish(event: ServiceEvent): void {
    this.hub.deliver(fitted(event));
  }
}
