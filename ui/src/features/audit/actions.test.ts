import { describe, expect, it } from 'vitest';
import { actionLabel, detailSummary, isRevertible, metadataDiffOf } from './actions';

const T = '<http://localhost/rest/a> <http://purl.org/dc/terms/title>';

describe('audit actions', () => {
  it('labels every action in words, and an unknown one as named', () => {
    expect(actionLabel('metadata.update')).toBe('Metadata changed');
    expect(actionLabel('job.apply')).toBe('Changed by a curation job');
    expect(actionLabel('something.new')).toBe('something.new');
  });

  it('reads the diff of a metadata event, and none of another kind', () => {
    const detail = { removed: [`${T} "Old" .`], added: [`${T} "New" .`] };
    expect(metadataDiffOf({ action: 'metadata.update', detail })).toEqual(detail);
    expect(metadataDiffOf({ action: 'resource.delete', detail: {} })).toBeUndefined();
    expect(metadataDiffOf({ action: 'binary.upload', detail })).toBeUndefined();
    expect(metadataDiffOf({ action: 'metadata.update', detail: { removed: [1] } })).toBeUndefined();
  });

  it('offers a revert for successful single metadata changes with a diff only', () => {
    const detail = { removed: [], added: [`${T} "New" .`] };
    for (const action of ['metadata.update', 'metadata.revert', 'job.apply', 'job.undo'])
      expect(isRevertible({ action, outcome: 'SUCCESS', detail })).toBe(true);
    expect(isRevertible({ action: 'resource.create', outcome: 'SUCCESS', detail })).toBe(false);
    expect(isRevertible({ action: 'metadata.update', outcome: 'FAILURE', detail })).toBe(false);
    expect(isRevertible({ action: 'metadata.update', outcome: 'SUCCESS', detail: {} })).toBe(false);
    expect(
      isRevertible({ action: 'metadata.update', outcome: 'SUCCESS', detail: { removed: [], added: [] } }),
    ).toBe(false);
  });

  it('sums a detail up in a few words, never more than the detail says', () => {
    expect(detailSummary({ action: 'metadata.update', detail: { removed: [`${T} "a" .`], added: [] } })).toBe(
      '1 triple removed, 0 added',
    );
    expect(
      detailSummary({ action: 'binary.upload', detail: { filename: 'scan.tif', size: 2048, digest: 'x' } }),
    ).toBe(`scan.tif, ${(2048).toLocaleString()} bytes`);
    expect(detailSummary({ action: 'fixity.check', detail: { status: 'BAD_CHECKSUM' } })).toBe(
      'BAD_CHECKSUM',
    );
    expect(
      detailSummary({
        action: 'user.update',
        detail: { id: 3, name: 'ada', fields: { role: 'ROLE_ADMIN', password: '(changed)' } },
      }),
    ).toBe('ada, fields: role, password');
    expect(detailSummary({ action: 'auth.login', detail: { reason: 'Bad credentials' } })).toBe(
      'Bad credentials',
    );
    expect(detailSummary({ action: 'resource.delete', detail: null })).toBe('');
  });
});
