import { describe, expect, it } from 'vitest';
import type { CurationJob } from './curation-job.js';
import { groupDigits, progressLine } from './progress-bar.js';

function job(progress: CurationJob['progress'], kind: CurationJob['kind'] = 'MAPPING'): CurationJob {
  return {
    id: 12,
    kind,
    state: 'RUNNING',
    repositoryViewId: 1,
    contextUri: 'http://localhost/rest/',
    scope: 'SUBTREE',
    query: null,
    spreadsheet: null,
    format: null,
    targetRepositoryViewId: null,
    targetContextUri: null,
    operators: [],
    dryRun: true,
    createdBy: 1,
    created: 0,
    started: 0,
    finished: null,
    progress,
    message: null,
  };
}

describe('progress line', () => {
  it('groups digits by three with a space, as the job messages do', () => {
    expect(groupDigits(3)).toBe('3');
    expect(groupDigits(1204)).toBe('1 204');
    expect(groupDigits(10_000_000)).toBe('10 000 000');
  });

  it('fills the bar in proportion to done/total and names the counts', () => {
    const line = progressLine(job({ total: 1000, done: 500, changed: 12, failed: 1 }));
    expect(line).toBe(
      'MAPPING job 12 RUNNING   [████████████░░░░░░░░░░░░]  50 % 500/1 000 · 12 changed · 1 failed',
    );
  });

  it('shows an empty bar before anything is found, and says passed for fixity', () => {
    const line = progressLine(job({ total: 0, done: 0, changed: 0, failed: 0 }, 'FIXITY'));
    expect(line).toContain('[░░░░░░░░░░░░░░░░░░░░░░░░]   0 %');
    expect(line).toContain('0 passed');
  });
});
