import type { Kysely } from 'kysely';

/** One-time tickets for the event stream (issue 12, src/events/event-ticket.table.ts). */
export function eventTicketsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('event_tickets')
        .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('session_hash', 'varchar(64)', (c) =>
          c.notNull().references('sessions.token_hash').onDelete('cascade'),
        )
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      // Signing out deletes the session's tickets through the foreign key; expired ones are purged by age.
      await db.schema
        .createIndex('event_tickets_session')
        .on('event_tickets')
        .column('session_hash')
        .execute();
      await db.schema.createIndex('event_tickets_expires').on('event_tickets').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('event_tickets').execute();
    },
  };
}
