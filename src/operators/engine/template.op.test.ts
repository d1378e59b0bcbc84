import { describe, expect, it } from 'vitest';
import type { ValueOperator } from '../operator.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';
import { applyTemplate, compileTemplate } from './template.op.js';

function op(value: string, field = 'citation'): ValueOperator {
  return { id: 6, type: 'TEMPLATE_OP', name: 'Cite', field, value };
}

describe('TEMPLATE_OP', () => {
  it.each<[string, string, MappingDocument, MappingDocument]>([
    [
      'fills placeholders',
      '{{creator}}: {{title}}',
      { creator: ['Ann'], title: ['T'] },
      { creator: ['Ann'], title: ['T'], citation: ['Ann: T'] },
    ],
    [
      'uses the first value of a multi-valued field',
      'by {{creator}}',
      { creator: ['Ann', 'Bob'] },
      { creator: ['Ann', 'Bob'], citation: ['by Ann'] },
    ],
    ['trims the key', '{{ title }}!', { title: ['T'] }, { title: ['T'], citation: ['T!'] }],
    ['fills the same key twice', '{{id}}-{{id}}', { id: ['7'] }, { id: ['7'], citation: ['7-7'] }],
    [
      'leaves the document unchanged when a placeholder field is missing',
      '{{title}} {{date}}',
      { title: ['T'] },
      { title: ['T'] },
    ],
    [
      'leaves the document unchanged when a placeholder field is empty',
      '{{title}}',
      { title: [] },
      { title: [] },
    ],
    [
      'sets a template without placeholders literally',
      'Rights reserved',
      {},
      { citation: ['Rights reserved'] },
    ],
    [
      'inserts $1 in a value literally',
      '<{{title}}>',
      { title: ['cost $1 $& $$'] },
      { title: ['cost $1 $& $$'], citation: ['<cost $1 $& $$>'] },
    ],
    [
      'does not re-expand {{x}} inside a value',
      '{{a}}/{{b}}',
      { a: ['{{b}}'], b: ['B'] },
      { a: ['{{b}}'], b: ['B'], citation: ['{{b}}/B'] },
    ],
    ['keeps stray braces around a placeholder', '{{{a}}}', { a: ['x'] }, { a: ['x'], citation: ['{x}'] }],
    [
      'never overwrites a present field',
      '{{title}}',
      { title: ['T'], citation: ['old'] },
      { title: ['T'], citation: ['old'] },
    ],
    [
      'fills an empty target list',
      '{{title}}',
      { title: ['T'], citation: [] },
      { title: ['T'], citation: ['T'] },
    ],
    ['does nothing when it reads its own absent target', '{{citation}}', {}, {}],
    ['does not resolve inherited members as fields', '{{toString}}', {}, {}],
  ])('%s', (_label, template, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, 'citation', applyTemplate(input, op(template)))).toEqual(expected);
    expect(input).toEqual(snapshot);
  });

  it.each<[string, MappingDocument, string | undefined]>([
    ['{{a}} and {{b}}', { a: ['1'], b: ['2', '3'] }, '1 and 2'],
    ['{{a}} and {{b}}', { a: ['1'] }, undefined],
    ['no placeholders', {}, 'no placeholders'],
    ['{{}}', {}, undefined],
    ['{{ a }}{{a}}', { a: ['x'] }, 'xx'],
  ])('compileTemplate(%j, %j) = %j', (template, document, expected) => {
    expect(compileTemplate(template, document)).toBe(expected);
  });
});
