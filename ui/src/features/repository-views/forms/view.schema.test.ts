import { describe, expect, it } from 'vitest';
import {
  DETECT,
  emptyViewForm,
  serverErrorsOf,
  toViewBody,
  viewFormSchema,
  viewFormValuesOf,
} from './view.schema';

const valid = {
  ...emptyViewForm,
  name: 'Archive',
  rootUri: 'http://localhost:8080/rest/',
  username: 'fedoraAdmin',
  password: 'secret',
};

function messages(values: unknown): string[] {
  const result = viewFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('viewFormSchema', () => {
  it('accepts a complete view', () => {
    expect(messages(valid)).toEqual([]);
  });

  it("says what is wrong with the name, the URI and the credentials in the service's words", () => {
    expect(messages({ ...valid, name: ' a ', rootUri: 'ftp://x', username: 'u', password: 'p' })).toEqual([
      "A repository view's name must be at least 2 characters long",
      'A repository view requires a valid URI',
      "A repository view's username must be at least 2 characters long",
      "A repository view's password must be at least 2 characters long",
    ]);
    expect(messages({ ...valid, rootUri: '' })).toEqual(['A repository view requires a URI']);
    expect(messages({ ...valid, rootUri: 'http://a:b@host/rest/' })).toEqual([
      "A repository view's URI must not contain credentials; use username and password",
    ]);
    expect(messages({ ...valid, rootUri: 'http://host/rest/?x=1' })).toEqual([
      'A repository view requires a valid URI',
    ]);
  });

  it('allows empty credentials (none)', () => {
    expect(messages({ ...valid, username: '', password: '' })).toEqual([]);
  });
});

describe('toViewBody', () => {
  it('creates with the password, detection as null and no curators for a non-admin', () => {
    expect(toViewBody({ ...valid, schemas: ['3'], curators: ['7'] }, { admin: false })).toEqual({
      type: 'FEDORA',
      name: 'Archive',
      rootUri: 'http://localhost:8080/rest/',
      username: 'fedoraAdmin',
      password: 'secret',
      dialect: null,
      schemas: [{ id: 3 }],
    });
  });

  it('sends curators for an admin and a pinned dialect only for FEDORA', () => {
    expect(toViewBody({ ...valid, dialect: 'FEDORA_5', curators: ['7'] }, { admin: true })).toMatchObject({
      dialect: 'FEDORA_5',
      curators: [{ id: 7 }],
    });
    expect(toViewBody({ ...valid, type: 'LDP', dialect: 'FEDORA_5' }, { admin: true }).dialect).toBeNull();
  });

  it('on edit keeps the stored password when the field is empty, clears it when asked', () => {
    const edit = { ...valid, password: '' };
    expect(toViewBody(edit, { id: 4, admin: true })).toMatchObject({ id: 4, password: null });
    expect(toViewBody({ ...edit, clearPassword: true }, { id: 4, admin: true }).password).toBe('');
    expect(toViewBody({ ...edit, password: 'new-one' }, { id: 4, admin: true }).password).toBe('new-one');
  });

  it('turns a stored view into form values with an empty password', () => {
    expect(
      viewFormValuesOf({
        type: 'FEDORA',
        name: 'A',
        rootUri: 'http://h/rest/',
        username: null,
        dialect: null,
        schemas: [{ id: 1 }],
        curators: null,
      }),
    ).toEqual({
      ...emptyViewForm,
      name: 'A',
      rootUri: 'http://h/rest/',
      dialect: DETECT,
      schemas: ['1'],
    });
  });
});

describe('serverErrorsOf', () => {
  it('puts property categories and a duplicate name on their fields, the rest above the form', () => {
    expect(
      serverErrorsOf({
        rootUri: { pattern: 'A repository view requires a valid URI' },
        business: {
          CREATE: 'RepositoryView with name of Archive already exists; Schema with id 9 does not exist',
        },
      }),
    ).toEqual({
      fields: {
        rootUri: 'A repository view requires a valid URI',
        name: 'RepositoryView with name of Archive already exists',
      },
      general: ['Schema with id 9 does not exist'],
    });
  });
});
