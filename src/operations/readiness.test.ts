import { describe, expect, it } from 'vitest';
import { runChecks } from './readiness.js';

describe('runChecks', () => {
  it('bounds every check: one that never answers is down, the others are told as they are', async () => {
    const logged: string[] = [];
    const outcomes = await runChecks(
      [
        { name: 'answers', check: () => Promise.resolve() },
        { name: 'hangs', check: () => new Promise<void>(() => undefined) },
        { name: 'fails', check: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432')) },
      ],
      (name, error) => logged.push(`${name}: ${error instanceof Error ? error.message : String(error)}`),
      50,
    );
    expect(outcomes).toEqual([
      { name: 'answers', ok: true },
      { name: 'hangs', ok: false },
      { name: 'fails', ok: false },
    ]);
    // The detail goes to the log, never into the outcome.
    expect(logged.sort()).toEqual([
      'fails: connect ECONNREFUSED 10.0.0.7:5432',
      'hangs: no answer within 50 ms',
    ]);
  });
});
