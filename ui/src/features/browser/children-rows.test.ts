import { describe, expect, it } from 'vitest';
import type { Context } from '../../api/context-types';
import { contextChildren } from './children-rows';

const child = (object: string, name: string | null, resource = false) =>
  ({
    name,
    resource,
    triple: { subject: 'http://h/rest/c', predicate: 'http://www.w3.org/ns/ldp#contains', object },
  }) as Context['children'][number];

describe('contextChildren (the list shown while the index cannot answer)', () => {
  it('names each child as the context does, else by its last segment, and sorts by name', () => {
    const context = {
      children: [
        child('http://h/rest/c/3', 'Item 10'),
        child('http://h/rest/c/1', null),
        child('http://h/rest/c/2', 'Item 9', true),
        { ...child('http://h/rest/c/x', null), triple: null },
      ],
    } as unknown as Context;
    expect(contextChildren(context)).toEqual([
      { contextUri: 'http://h/rest/c/1', name: '1', resource: false },
      { contextUri: 'http://h/rest/c/2', name: 'Item 9', resource: true },
      { contextUri: 'http://h/rest/c/3', name: 'Item 10', resource: false },
    ]);
  });
});
