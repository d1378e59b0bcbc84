import { compareCodeUnits } from '../shared/compare.js';
import type { CheckedBody } from '../shared/body-check.js';
import type { ValidationCollector } from '../shared/validation.js';
import { LIMITS, type SchemaBody } from './schema.schema.js';

/** One property a schema offers to curators (interface §2 Schema.properties). */
export interface Property {
  readonly uri: string;
  readonly label: string;
}

/**
 * A schema: a named set of namespaced properties (interface §2, cap-behaviour.md §3.2). `namespaces` is
 * derived from the property URIs and never stored.
 */
export interface Schema {
  readonly id: number;
  readonly name: string;
  readonly abbreviation: string;
  readonly namespace: string;
  readonly properties: readonly Property[];
}

export type SchemaInput = Omit<Schema, 'id'>;

export const ENTITY = 'Schema';

/**
 * An absolute http(s) IRI: `new URL` must accept it, the scheme must be http or https, and it must not
 * hold characters an IRI cannot (whitespace, `<>"{}|\^` and the backtick), which `new URL` would
 * silently percent-encode and SPARQL would refuse.
 */
export function isHttpIri(value: string): boolean {
  if (/[\s<>"{}|\\^`]/u.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * A schema body that passed SchemaBody, with the checks a schema cannot make: the namespace an http(s)
 * IRI, each property's uri and label. `namespaces` in the body is ignored (it is derived). Every failure is
 * collected; undefined is returned when any was found.
 */
export function parseSchema(body: CheckedBody<SchemaBody>): SchemaInput | undefined {
  const collector = body.collector;
  const namespace = body.get('namespace');
  if (namespace !== undefined && !isHttpIri(namespace)) {
    collector.add('namespace', 'pattern', 'A namespace must be a valid URI');
  }
  const properties = body.passed('properties')
    ? parseProperties(body.get('properties'), collector)
    : undefined;
  const value = body.value;
  if (value === undefined || properties === undefined) return undefined;
  return { name: value.name, abbreviation: value.abbreviation, namespace: value.namespace, properties };
}

function parseProperties(
  value: readonly unknown[] | null | undefined,
  collector: ValidationCollector,
): Property[] | undefined {
  if (value === undefined || value === null) return [];
  if (value.length > LIMITS.properties) {
    collector.add('properties', 'maxlength', `A schema can hold at most ${LIMITS.properties} properties`);
    return undefined;
  }
  const properties: Property[] = [];
  let failed = false;
  for (const [index, item] of value.entries()) {
    const property = parseProperty(item, index + 1, collector);
    if (property === undefined) failed = true;
    else properties.push(property);
  }
  return failed ? undefined : properties;
}

function parseProperty(item: unknown, n: number, collector: ValidationCollector): Property | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    collector.add('properties', 'type', `Property ${n} must be an object with "uri" and "label"`);
    return undefined;
  }
  const { uri, label } = item as Record<string, unknown>;
  const problems: [key: string, message: string][] = [];
  if (uri === undefined || uri === null) problems.push(['required', `Property ${n} requires a uri`]);
  else if (typeof uri !== 'string') problems.push(['type', `Property ${n}: the uri must be a string`]);
  else if (uri.length > LIMITS.uri) {
    problems.push(['maxlength', `Property ${n}: the uri must be at most ${LIMITS.uri} characters long`]);
  } else if (!isHttpIri(uri)) {
    problems.push(['pattern', `Property ${n}: the uri must be an absolute http or https IRI`]);
  }
  if (label === undefined || label === null) problems.push(['required', `Property ${n} requires a label`]);
  else if (typeof label !== 'string') problems.push(['type', `Property ${n}: the label must be a string`]);
  else if (label.trim() === '') problems.push(['minlength', `Property ${n}: the label must not be empty`]);
  else if (label.length > LIMITS.label) {
    problems.push(['maxlength', `Property ${n}: the label must be at most ${LIMITS.label} characters long`]);
  }
  for (const [key, message] of problems) collector.add('properties', key, message);
  if (problems.length > 0 || typeof uri !== 'string' || typeof label !== 'string') return undefined;
  return { uri, label };
}

/**
 * The namespace of one property URI, kept with its separator (DECISIONS.md §6): everything up to and
 * including the last `#`, else up to and including the last `/` of the path. A URI without either
 * after its authority is its own namespace.
 */
export function namespaceOf(uri: string): string {
  const hash = uri.lastIndexOf('#');
  if (hash >= 0) return uri.slice(0, hash + 1);
  const authorityStart = uri.indexOf('//') + 2;
  const slash = uri.lastIndexOf('/');
  return slash >= authorityStart ? uri.slice(0, slash + 1) : uri;
}

/** The de-duplicated, sorted namespaces of a schema's property URIs. */
export function namespacesOf(properties: readonly Property[]): string[] {
  return [...new Set(properties.map((p) => namespaceOf(p.uri)))].sort(compareCodeUnits);
}

/**
 * What a repository view using this schema treats as metadata (DECISIONS.md §6): the schema's own
 * `namespace` first, then the namespaces of its properties.
 */
export function metadataPrefixesOf(schema: Pick<Schema, 'namespace' | 'properties'>): string[] {
  return [...new Set([schema.namespace, ...namespacesOf(schema.properties)])];
}

/** The JSON form, in the documented field order: id, name, abbreviation, namespace, properties, namespaces. */
export function toSchemaJson(schema: Schema) {
  return {
    id: schema.id,
    name: schema.name,
    abbreviation: schema.abbreviation,
    namespace: schema.namespace,
    properties: schema.properties.map((p) => ({ uri: p.uri, label: p.label })),
    namespaces: namespacesOf(schema.properties),
  };
}
