import { resolveContextUri } from '../../repository-view-context/context-uri.js';
import type { Schema } from '../../schemas/schema.js';
import { parseQuery } from '../../search/query/parse-query.js';
import { schemaResolver } from '../../search/query/prefixes.js';
import { addQueryError, describeQueryError } from '../../search/query/query-invalid.js';
import { InvalidQueryError } from '../../search/search.js';
import { BadRequestError, ValidationFailedError } from '../../shared/errors.js';
import { ValidationCollector } from '../../shared/validation.js';

/** What an export may cover (DECISIONS.md §13): a container's children or subtree, a query's hits, members. */
export const EXPORT_SCOPES = ['CHILDREN', 'SUBTREE', 'QUERY', 'MEMBERS'] as const;
export type ExportScope = (typeof EXPORT_SCOPES)[number];

/** The only format there is (the parameter is there so that another can come without a new endpoint). */
export const EXPORT_FORMATS = ['csv'] as const;

/** The query parameters of GET …/export, as the route's schema types them (values are checked here). */
export interface ExportParams {
  readonly contextUri?: string | undefined;
  readonly scope?: string | undefined;
  readonly query?: string | undefined;
  readonly format?: string | undefined;
  readonly bom?: boolean | undefined;
}

/** A checked export request. */
export interface ExportRequest {
  /** Absolute, inside the view (the root when none was given). */
  readonly contextUri: string;
  readonly scope: ExportScope;
  /** QUERY: the query (it parses for the view); otherwise null. */
  readonly query: string | null;
  /** Whether the CSV starts with a UTF-8 byte-order mark (what Excel needs to read it as UTF-8). */
  readonly bom: boolean;
}

/** What the check needs of the view: where it is and its prefixes. */
export interface ExportView {
  readonly rootUri: string;
  readonly schemas: readonly Pick<Schema, 'abbreviation' | 'namespace'>[];
}

/**
 * The request checked before anything is read: every problem in one INVALID (DECISIONS.md §3), its message
 * the problem itself when there is one. QUERY and MEMBERS need search (`searchable`); a QUERY's query must
 * parse for the view (its position named as GET …/search names it); the context must lie in the view.
 */
export function checkExportRequest(
  view: ExportView,
  params: ExportParams,
  searchable: boolean,
): ExportRequest {
  const collector = new ValidationCollector();
  const problems: string[] = [];
  const refuse = (category: string, key: string, message: string) => {
    collector.add(category, key, message);
    problems.push(message);
  };

  const scope = EXPORT_SCOPES.find((candidate) => candidate === params.scope);
  if (scope === undefined)
    refuse(
      'scope',
      params.scope === undefined ? 'required' : 'type',
      `The query parameter scope must be one of ${EXPORT_SCOPES.join(', ')}`,
    );
  else if ((scope === 'QUERY' || scope === 'MEMBERS') && !searchable)
    refuse('scope', 'type', `A ${scope}-scoped export needs search, which this service does not offer`);

  const format = params.format ?? 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    refuse('format', 'type', `The query parameter format must be ${EXPORT_FORMATS.join(' or ')}`);

  let contextUri: string | undefined;
  try {
    const resolved = resolveContextUri(view.rootUri, params.contextUri ?? view.rootUri);
    if (resolved.tx === undefined) contextUri = resolved.uri;
    else
      refuse(
        'contextUri',
        'pattern',
        'An export reads what is committed: its contextUri must not name a transaction',
      );
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    refuse('contextUri', 'pattern', error.message);
  }

  const query = params.query?.trim() ?? '';
  if (scope === 'QUERY') {
    if (query === '')
      refuse(
        'query',
        'required',
        'A QUERY-scoped export requires a query (SUBTREE is every resource below contextUri)',
      );
    else checkQuery(query, view, collector, problems);
  } else if (scope !== undefined && query !== '') {
    refuse('query', 'type', `Only a QUERY-scoped export takes a query, not a ${scope}-scoped one`);
  }

  if (!collector.isValid || scope === undefined || contextUri === undefined)
    throw new ValidationFailedError(collector.results(), problems.length === 1 ? problems[0] : undefined);
  return { contextUri, scope, query: scope === 'QUERY' ? query : null, bom: params.bom ?? false };
}

function checkQuery(
  query: string,
  view: ExportView,
  collector: ValidationCollector,
  problems: string[],
): void {
  try {
    parseQuery(query, schemaResolver(view.schemas), {
      prefixes: view.schemas.map((schema) => schema.abbreviation),
    });
  } catch (error) {
    if (!(error instanceof InvalidQueryError)) throw error;
    addQueryError(collector, error, 'query');
    problems.push(describeQueryError(error));
  }
}
