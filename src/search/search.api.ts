import { Type } from '@sinclair/typebox';
import type { JsonSchema } from '../http/schemas.js';
import { messages } from '../shared/body-schema.js';
import { MAX_QUERY_LENGTH, MAX_REGEX_LENGTH, MAX_TERMS } from './query/parse-query.js';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from './search.service.js';

/**
 * The query string of GET …/search. The schema checks only the types (a malformed value is the 400 of
 * every query parameter, http/parameters.ts); ranges and allowed values are the service's INVALID, with
 * the query language's problems, so that one answer names them all (DECISIONS.md §3).
 */
export const SearchQuery = Type.Object({
  contextUri: Type.Optional(
    Type.String({
      description:
        'Search this resource and what it contains, transitively (absolute, or relative to the view root; default the root)',
      ...messages({ type: 'The query parameter contextUri must be given once' }),
    }),
  ),
  q: Type.Optional(
    Type.String({
      description:
        `Terms joined by AND (DECISIONS.md §12; at most ${MAX_QUERY_LENGTH} characters, ${MAX_TERMS} terms): ` +
        'word, word*, "a phrase", -term (exclude), dcterms:title:word, dcterms:title:"a phrase", <iri>:word, ' +
        'has:dcterms:date, type:pcdm:Object, type:<iri>, binary:true|false, modified:>=2026-01-01 (>, >=, <, <=; ' +
        `UTC), dcterms:date:/^[0-9]{4}$/ (RE2, at most ${MAX_REGEX_LENGTH} characters, no flags: (?i) inside). ` +
        'Prefixes are the view’s schemas. An unquoted colon always makes a field term, so text with a colon ' +
        '(a URL, 10:30) is searched in quotes. Empty: everything.',
      ...messages({ type: 'The query parameter q must be given once' }),
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      default: 0,
      description: `0 to ${MAX_OFFSET}`,
      ...messages({ type: `The query parameter offset must be an integer from 0 to ${MAX_OFFSET}` }),
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      default: DEFAULT_LIMIT,
      description: `1 to ${MAX_LIMIT}`,
      ...messages({ type: `The query parameter limit must be an integer from 1 to ${MAX_LIMIT}` }),
    }),
  ),
  depth: Type.Optional(
    Type.Integer({
      description:
        '1: only the direct children of contextUri (not contextUri itself); absent: everything below',
      ...messages({ type: 'The query parameter depth must be 1 (direct children only) or absent' }),
    }),
  ),
  facets: Type.Optional(
    Type.Boolean({
      default: true,
      description:
        'false: the facets are left empty and only the hits and the total are counted (a container’s children ' +
        'paged by name need none, and counting them over 100 000 children costs a hundred times the page)',
      ...messages({ type: 'The query parameter facets must be true or false' }),
    }),
  ),
  sort: Type.Optional(
    Type.String({
      description:
        'relevance, name or modified (newest first). Default: relevance when q has words or phrases, else modified',
      ...messages({ type: 'The query parameter sort must be one of relevance, name, modified' }),
    }),
  ),
});

const facetSchema: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { value: { type: 'string' }, count: { type: 'integer' } },
    required: ['value', 'count'],
  },
};

const hitSchema: JsonSchema = {
  type: 'object',
  properties: {
    contextUri: { type: 'string', description: 'The resource’s IRI, a context URI of the view' },
    name: { type: 'string', description: 'As a context’s name: Root for the view’s root' },
    types: { type: 'array', items: { type: 'string' }, description: 'rdf:type IRIs (full)' },
    resource: { type: 'boolean', description: 'True for a binary' },
    modified: { type: ['integer', 'null'], description: 'epoch milliseconds' },
    snippet: {
      type: ['string', 'null'],
      description: 'The matched text, matched words wrapped in **; null without words or phrases',
    },
  },
  required: ['contextUri', 'name', 'types', 'resource', 'modified', 'snippet'],
};

/** `SearchResults` of DECISIONS.md §12 (the workbench's generated types read it). */
export const searchResultsSchema: JsonSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    offset: { type: 'integer' },
    limit: { type: 'integer' },
    hits: { type: 'array', items: hitSchema },
    facets: {
      type: 'object',
      description: 'Over every hit: type IRIs, predicate IRIs and media types, with counts',
      properties: { types: facetSchema, predicates: facetSchema, mimeTypes: facetSchema },
      required: ['types', 'predicates', 'mimeTypes'],
    },
    indexedAt: {
      type: ['integer', 'null'],
      description: 'epoch milliseconds of the view’s last complete indexing; null when unknown',
    },
  },
  required: ['total', 'offset', 'limit', 'hits', 'facets', 'indexedAt'],
};
