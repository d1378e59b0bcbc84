import type { Operator } from '../operators/operator.js';
import type { OpenedView } from '../repository-views/repository-view.service.js';
import type { CheckedBody } from '../shared/body-check.js';
import { businessMessages as msg } from '../shared/business-messages.js';
import type { CurationJobBody } from './curation-job.schema.js';
import { FieldNaming } from './work/field-naming.js';

/** A MAPPING job's operators exist and each names a predicate the view can name. */
export async function checkOperators(
  ids: readonly number[],
  findOperators: (ids: readonly number[]) => Promise<readonly Operator[]>,
  opened: OpenedView | undefined,
  body: CheckedBody<CurationJobBody>,
): Promise<void> {
  const collector = body.collector;
  if (ids.length === 0) {
    collector.add('operators', 'required', 'A MAPPING job requires at least one operator');
    return;
  }
  const found = await findOperators(ids);
  const unknown = [...new Set(ids)].filter((id) => !found.some((operator) => operator.id === id));
  if (unknown.length > 0)
    collector.add('operators', 'exists', unknown.map((id) => msg.doesNotExist('Operator', id)).join('; '));
  if (opened === undefined) return;
  const naming = new FieldNaming(opened.schemas);
  const unnamed = found.filter((operator) => naming.predicateOf(operator.field) === undefined);
  if (unnamed.length > 0) {
    const abbreviations = opened.schemas.map((schema) => schema.abbreviation).join(', ') || 'none';
    collector.add(
      'operators',
      'pattern',
      unnamed
        .map(
          (operator) =>
            `Operator ${operator.id} (${operator.name}) has the field "${operator.field}", which is neither abbreviation:localName of one of the view's schemas (${abbreviations}) nor an absolute IRI${suggestion(operator.field, naming)}`,
        )
        .join('; '),
    );
  }
}

/**
 * For a bare field name (`title`, as `POST /operators/apply` documents use): the prefixed names a job would
 * match, since such an operator matches nothing in a job.
 */
function suggestion(field: string, naming: FieldNaming): string {
  if (!/^[^\s:/#?]+$/u.test(field)) return '';
  const names = naming.prefixedNamesFor(field);
  if (names.length === 0) return '';
  return `; a job names fields by prefixed name, so it matches nothing in a job: use ${names.join(' or ')}`;
}
