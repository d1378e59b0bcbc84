import { roleSatisfies, type Role } from '../auth/roles.js';
import type { EventAudience } from './event-bus.js';

/** Who a stream delivers to, as of its last session check. */
export interface EventReader {
  readonly userId: number;
  readonly role: Role;
}

/**
 * The curators of a view as they are now; undefined when the view does not exist. app.ts passes the
 * views store's lookup, which keeps each view while the database is unchanged (db/data-version.ts), so
 * asking once per event and subscriber costs a map lookup, and a curator removed a moment ago no longer
 * sees the view's events.
 */
export type CuratorLookup = (viewId: number) => Promise<readonly number[] | undefined>;

/** A client sees only events it could read through the API (DECISIONS.md §10), checked at delivery. */
export class AudienceCheck {
  constructor(private readonly curatorsOf: CuratorLookup) {}

  async allows(reader: EventReader, audience: EventAudience): Promise<boolean> {
    if (reader.role === 'ROLE_ADMIN') return true;
    switch (audience.kind) {
      case 'admin':
        return audience.userId === reader.userId;
      case 'view':
        // The context routes need a curator's role as well as the curatorship.
        if (!roleSatisfies(reader.role, 'ROLE_CURATOR')) return false;
        if (audience.curatorIds?.includes(reader.userId) === true) return true;
        return (await this.curatorsOf(audience.viewId))?.includes(reader.userId) === true;
      case 'role':
        return roleSatisfies(reader.role, audience.role);
      case 'signedIn':
        return true;
    }
  }
}
