import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL, testDialect } from '../../test/support/test-database.js';
import { ListenConnection, type ListeningInfo } from './listen-connection.js';

/**
 * The reconnecting LISTEN connection the change feed and the event bus share: what it reports, when it
 * connects again, and that closing it ends all of that.
 */
let connection: ListenConnection | undefined;

afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

/** A connection with its reports collected; the channel is unique, so parallel test files never meet. */
function listen(connectionString: string, retryMs: number) {
  const channel = `listen_test_${randomUUID().replaceAll('-', '')}`;
  const troubles: string[] = [];
  const payloads: string[] = [];
  const listenings: ListeningInfo[] = [];
  let losses = 0;
  connection = new ListenConnection(
    {
      connectionString,
      applicationName: 'scriptorium listen test',
      channelSql: `'${channel}'`,
      retryMs,
      onTrouble: (message) => troubles.push(message),
      lostMessage: (why) => `test notifications lost (${why})`,
      backMessage: 'test notifications are back',
    },
    {
      onNotification: (payload) => payloads.push(payload),
      onListening: (info) => listenings.push(info),
      onLost: () => losses++,
    },
  );
  return { connection, channel, troubles, payloads, listenings, losses: () => losses };
}

describe('a listen connection', () => {
  it('reports a failed connection without credentials, retries, and stops retrying once closed', async () => {
    // Nothing listens on port 1: every attempt fails at once.
    const { connection, troubles, listenings } = listen('postgres://someone:secret-word@127.0.0.1:1/none', 5);
    await connection.start();
    expect(connection.isListening).toBe(false);
    await expect.poll(() => troubles.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    for (const message of troubles) {
      expect(message).toMatch(/^test notifications lost \(.+\)$/);
      expect(message).not.toContain('secret-word');
    }
    await connection.close();
    const reported = troubles.length;
    // Longer than the next retry would have waited (5 ms doubled at most a few times so far).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(troubles).toHaveLength(reported);
    expect(listenings).toEqual([]);
  });

  if (testDialect === 'postgres') {
    it('hears notifications on the channel its SQL names, its own included', async () => {
      const { connection, channel, troubles, payloads, listenings } = listen(TEST_POSTGRES_URL, 5);
      await connection.start();
      expect(connection.isListening).toBe(true);
      expect(listenings).toHaveLength(1);
      expect(listenings[0]?.channel).toBe(channel);
      expect(listenings[0]?.backendPid).toEqual(expect.any(Number));
      const other = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await other.connect();
      try {
        await other.query('select pg_notify($1, $2)', [channel, 'from another session']);
      } finally {
        await other.end();
      }
      // PostgreSQL delivers in commit order: our own notification comes after the other session's.
      await connection.notifySelf('from itself');
      await expect.poll(() => payloads.length).toBe(2);
      expect(payloads).toEqual(['from another session', 'from itself']);
      expect(troubles).toEqual([]);
    });

    it('says when it lost its connection and when it listens again, on a new session', async () => {
      const { connection, troubles, listenings, losses } = listen(TEST_POSTGRES_URL, 5);
      await connection.start();
      const pid = listenings[0]?.backendPid;
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      await expect.poll(() => listenings.length, { timeout: 10_000 }).toBe(2);
      expect(connection.isListening).toBe(true);
      expect(listenings[1]?.backendPid).not.toBe(pid);
      expect(losses()).toBe(1);
      expect(troubles).toHaveLength(2);
      expect(troubles[0]).toMatch(/^test notifications lost \(.+\)$/);
      expect(troubles[1]).toBe('test notifications are back');
    });

    it('reports nothing and does not reconnect once closed', async () => {
      const { connection, troubles, listenings, losses } = listen(TEST_POSTGRES_URL, 5);
      await connection.start();
      await connection.close();
      expect(connection.isListening).toBe(false);
      await connection.start();
      expect(connection.isListening).toBe(false);
      expect(listenings).toHaveLength(1);
      expect(losses()).toBe(0);
      expect(troubles).toEqual([]);
    });
  }
});
