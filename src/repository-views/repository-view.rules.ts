import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import type { CheckedBody } from '../shared/body-check.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import type { PasswordChange, RepositoryView } from './repository-view.js';
import type { VerificationBody } from './repository-view.schema.js';
import type { RepositoryViewRecord } from './repository-view.store.js';

/** A view's input once its body passed repository-view.schema.ts and the checks a schema cannot make. */
export interface RepositoryViewInput {
  type: RepositoryKind;
  name: string;
  rootUri: string;
  username: string | null;
  password: PasswordChange;
  schemaIds: number[] | undefined;
  curatorIds: number[] | undefined;
  /** null = detect; undefined = absent (a PUT keeps the stored one, a POST detects). */
  dialect: FedoraDialect | null | undefined;
}

/** An absolute http(s) URL without embedded credentials, fragment or query. */
export function parseRootUri(body: CheckedBody<VerificationBody>): string | undefined {
  const text = body.get('rootUri');
  if (text === undefined) return undefined;
  const collector = body.collector;
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

/**
 * The view's input, or undefined when any check failed (each failure is in the body's collector). The type
 * and the name are passed in: verification takes the type from the path and does not need a name.
 */
export function parseRepositoryView(
  body: CheckedBody<VerificationBody>,
  type: RepositoryKind | undefined,
  name: string | undefined,
): RepositoryViewInput | undefined {
  const rootUri = parseRootUri(body);
  const dialect = body.get('dialect');
  if (dialect !== undefined && dialect !== null && type !== undefined && type !== 'FEDORA')
    body.collector.add('dialect', 'type', 'Only a FEDORA view has a dialect');
  const value = body.value;
  if (value === undefined || rootUri === undefined || type === undefined || name === undefined)
    return undefined;
  const password = value.password ?? null;
  return {
    type,
    name,
    rootUri,
    // Kept as sent: "" and null both mean no credentials, and the view answers what was stored.
    username: value.username ?? null,
    password:
      password === null
        ? { kind: 'keep' }
        : password === ''
          ? { kind: 'clear' }
          : { kind: 'set', value: password },
    schemaIds: idsOf(value.schemas),
    curatorIds: idsOf(value.curators),
    dialect,
  };
}

/** The distinct ids of a reference list, in order; null or absent means unchanged. */
function idsOf(list: readonly { id: number }[] | null | undefined): number[] | undefined {
  return list === null || list === undefined ? undefined : [...new Set(list.map((item) => item.id))];
}

/**
 * What the store keeps. `dialect` absent on PUT keeps the stored one (as `schemas` and `curators` do: a
 * client that predates the field cannot unpin it); only a FEDORA view has one.
 */
export function record(
  input: RepositoryViewInput,
  existing: RepositoryView | undefined,
): RepositoryViewRecord {
  return {
    type: input.type,
    name: input.name,
    rootUri: input.rootUri,
    username: input.username,
    schemaIds: input.schemaIds ?? existing?.schemaIds ?? [],
    curatorIds: input.curatorIds ?? existing?.curatorIds ?? [],
    dialect:
      input.type !== 'FEDORA'
        ? null
        : input.dialect === undefined
          ? (existing?.dialect ?? null)
          : input.dialect,
  };
}
