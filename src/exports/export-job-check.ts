import type { CheckedBody } from '../shared/body-check.js';
import { EXPORT_FORMATS } from '../curation-jobs/curation-job.js';
import type { CurationJobBody } from '../curation-jobs/curation-job.schema.js';

/**
 * The EXPORT kind's own rules on `POST /curation-job` (DECISIONS.md §15), told with the body's other
 * problems: an EXPORT job names its format (BAGIT), takes no operators and does not preview; no other kind
 * takes a format.
 */
export function checkExportFields(body: CheckedBody<CurationJobBody>): void {
  const { collector } = body;
  const kind = body.get('kind');
  const format = body.get('format');
  if (kind !== 'EXPORT') {
    if (kind !== undefined && format !== undefined && format !== null)
      collector.add('format', 'type', `Only an EXPORT job takes a format, not a ${kind} job`);
    return;
  }
  if (body.passed('format') && (format === undefined || format === null))
    collector.add('format', 'required', 'An EXPORT job requires a format (BAGIT)');
  else if (format !== undefined && format !== null && !(EXPORT_FORMATS as readonly string[]).includes(format))
    collector.add('format', 'type', `An EXPORT job's format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const operators = body.get('operators');
  if (operators !== undefined && operators !== null && operators.length > 0)
    collector.add('operators', 'type', 'An EXPORT job takes no operators');
  if (body.get('dryRun') === true)
    collector.add('dryRun', 'type', 'An EXPORT job does not preview: its dryRun must be false');
}
