import { checkString, type StringRule, type ValidationCollector } from '../shared/validation.js';
import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import { isRepositoryKind, REPOSITORY_KINDS, type PasswordChange } from './repository-view.js';

type Body = Readonly<Record<string, unknown>>;

/** Input rules of cap-behaviour.md §4.1 (wording corrected), plus limits the original lacked. */
export interface RepositoryViewInput {
  type: RepositoryKind;
  name: string;
  rootUri: string;
  username: string | null;
  password: PasswordChange;
  schemaIds: number[] | undefined;
  curatorIds: number[] | undefined;
}

const NAME_RULE: StringRule = {
  property: 'name',
  minLength: 2,
  maxLength: 255,
  messages: {
    required: 'A repository view requires a name',
    minlength: "A repository view's name must be at least 2 characters long",
    maxlength: "A repository view's name must be at most 255 characters long",
    type: "A repository view's name must be a string",
  },
};

const ROOT_URI_RULE: StringRule = {
  property: 'rootUri',
  maxLength: 2000,
  messages: {
    required: 'A repository view requires a URI',
    maxlength: "A repository view's URI must be at most 2000 characters long",
    type: "A repository view's URI must be a string",
  },
};

export function parseType(body: Body, collector: ValidationCollector): RepositoryKind | undefined {
  const type = body.type;
  if (type === undefined || type === null) {
    collector.add('type', 'required', 'A repository view requires a type');
    return undefined;
  }
  if (!isRepositoryKind(type)) {
    collector.add('type', 'type', `A repository view type must be one of ${REPOSITORY_KINDS.join(', ')}`);
    return undefined;
  }
  return type;
}

/** An absolute http(s) URL without embedded credentials, fragment or query. */
export function parseRootUri(body: Body, collector: ValidationCollector): string | undefined {
  const text = checkString(body, ROOT_URI_RULE, collector);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    collector.add('rootUri', 'pattern', 'A repository view requires a valid URI');
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    collector.add('rootUri', 'pattern', 'A repository view requires a valid URI');
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    collector.add(
      'rootUri',
      'pattern',
      "A repository view's URI must not contain credentials; use username and password",
    );
    return undefined;
  }
  return url.href;
}

/** A credential: null/absent or "" means none; otherwise 2–255 characters. */
function parseCredential(
  body: Body,
  property: 'username' | 'password',
  collector: ValidationCollector,
): string | null | undefined {
  const value = body[property];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    collector.add(property, 'type', `A repository view's ${property} must be a string`);
    return undefined;
  }
  if (value === '') return '';
  if (value.length < 2)
    collector.add(
      property,
      'minlength',
      `A repository view's ${property} must be at least 2 characters long`,
    );
  else if (value.length > 255)
    collector.add(
      property,
      'maxlength',
      `A repository view's ${property} must be at most 255 characters long`,
    );
  else return value;
  return undefined;
}

/** `[{id}, …]` (full objects are accepted; only `id` is read). Absent means "unchanged" on update. */
function parseIdList(
  body: Body,
  property: 'schemas' | 'curators',
  collector: ValidationCollector,
): number[] | undefined | null {
  const raw = body[property];
  if (raw === undefined || raw === null) return null;
  const message = `A repository view's ${property} must be a list of objects with an id`;
  if (!Array.isArray(raw) || raw.length > 1000) {
    collector.add(property, 'type', message);
    return undefined;
  }
  const ids: number[] = [];
  for (const item of raw) {
    const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      collector.add(property, 'type', message);
      return undefined;
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export function parseRepositoryView(
  body: Body,
  collector: ValidationCollector,
): RepositoryViewInput | undefined {
  const type = parseType(body, collector);
  const name = checkString(body, NAME_RULE, collector);
  const rootUri = parseRootUri(body, collector);
  const username = parseCredential(body, 'username', collector);
  const password = parseCredential(body, 'password', collector);
  const schemaIds = parseIdList(body, 'schemas', collector);
  const curatorIds = parseIdList(body, 'curators', collector);
  if (
    type === undefined ||
    name === undefined ||
    rootUri === undefined ||
    username === undefined ||
    password === undefined
  )
    return undefined;
  if (schemaIds === undefined || curatorIds === undefined) return undefined;
  return {
    type,
    name,
    rootUri,
    // Kept as sent: "" and null both mean no credentials, and the view answers what was stored.
    username,
    password:
      password === null
        ? { kind: 'keep' }
        : password === ''
          ? { kind: 'clear' }
          : { kind: 'set', value: password },
    schemaIds: schemaIds ?? undefined,
    curatorIds: curatorIds ?? undefined,
  };
}
