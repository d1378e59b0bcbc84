import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { jobQueueFor, serviceSchemaOf } from './curation-jobs.js';
import { InProcessJobQueue } from './runner/in-process-queue.js';
import { PgBossJobQueue } from './runner/pg-boss-queue.js';

/**
 * The assembly's choices: which queue each database gets, and which schema pg-boss's tables go beside
 * (a wrong one would let instances on different schemas take each other's job ids).
 */
const url = 'postgres://scriptorium@127.0.0.1:5432/scriptorium';
const warn = () => undefined;

describe('the job queue of the assembly', () => {
  it('is in process on SQLite and pg-boss on PostgreSQL', async () => {
    expect(jobQueueFor(loadConfig({}), warn)).toBeInstanceOf(InProcessJobQueue);
    const shared = jobQueueFor(loadConfig({ DATABASE_URL: url }), warn);
    expect(shared).toBeInstanceOf(PgBossJobQueue);
    // Never started: stopping only ends its (unconnected) pool.
    await shared.stop(0);
  });

  it("puts pg-boss beside the service's schema: the configured one, else the URL's search_path", () => {
    expect(serviceSchemaOf({ kind: 'postgres', url, schema: 'tenant_a' })).toBe('tenant_a');
    const withOptions = (options: string) => `${url}?options=${encodeURIComponent(options)}`;
    expect(serviceSchemaOf({ kind: 'postgres', url: withOptions('-c search_path=test_1') })).toBe('test_1');
    expect(serviceSchemaOf({ kind: 'postgres', url: withOptions('-c search_path=a,public') })).toBe('a');
    expect(serviceSchemaOf({ kind: 'postgres', url: withOptions('--search_path=b') })).toBe('b');
    expect(
      serviceSchemaOf({ kind: 'postgres', url: withOptions('-c statement_timeout=5s') }),
    ).toBeUndefined();
    expect(serviceSchemaOf({ kind: 'postgres', url })).toBeUndefined();
  });
});
