import sparqljs from 'sparqljs';
import {
  beyondUnicodeProblem,
  escapeBeyondUnicode,
  hasLoneSurrogate,
  LONE_SURROGATE_PROBLEM,
} from '../../shared/unicode.js';
import { isServerManaged } from '../rdf/server-managed.js';
import { SparqlUpdateRefusal, type UpdateRefusalReason } from './update-refusal.js';

/**
 * What one caller allows in a SPARQL Update. Every policy refuses LOAD, CLEAR, DROP, CREATE, ADD,
 * MOVE, COPY, WITH, USING, GRAPH in templates and SERVICE anywhere; the rest is chosen per caller
 * (update-policies.ts holds the three callers' policies).
 */
export interface UpdatePolicy {
  /** The IRI `<>` and relative IRIs resolve to. */
  readonly base: string;
  /** Blank text is refused (the parser reads it as an update with no operation). */
  readonly refuseEmpty: boolean;
  /** The longest text accepted, in UTF-16 code units; unbounded when absent. */
  readonly maxLength?: number;
  /**
   * Escapes beyond U+10FFFF in the text, and lone surrogates in the text normaliseSparqlUpdate
   * generates, are refused: sparqljs turns both into surrogates instead of refusing them.
   */
  readonly unicodeOnly: boolean;
  /** GRAPH inside WHERE is refused (otherwise it is walked, and left to the next vetting). */
  readonly refuseGraphPatterns: boolean;
  /** Sub-queries in WHERE are walked like the rest (otherwise refused as beyond basic patterns). */
  readonly subqueries: boolean;
  /** WHERE holds nothing but basic graph patterns without property paths (generic LDP servers). */
  readonly bgpOnly: boolean;
  /** Templates may not write server-managed statements (linked-data/rdf/server-managed.ts). */
  readonly refuseServerManaged: boolean;
  /** The caller's wording of a refusal; undefined for one its rules never make. */
  readonly message: (reason: UpdateRefusalReason, detail: string) => string | undefined;
}

// One generator serves every call: given no prefixes, it writes full IRIs and carries nothing over.
const generator = new sparqljs.Generator();

/**
 * Parses a SPARQL Update (`<>` resolving to the policy's base) and checks it against the policy, on
 * the parsed algebra, operation by operation: the operation, WITH, USING, GRAPH in templates, the
 * WHERE clause at every depth; last server-managed statements, a conflict with the resource rather
 * than a malformed request. Answers the parsed update, so that the caller never parses it twice;
 * throws SparqlUpdateRefusal.
 */
export function vetSparqlUpdate(text: string, policy: UpdatePolicy): sparqljs.Update {
  const refuse = refuser(policy);
  if (policy.refuseEmpty && text.trim() === '') throw refuse('empty', '');
  if (policy.maxLength !== undefined && text.length > policy.maxLength)
    throw refuse('tooLong', String(policy.maxLength));
  if (policy.unicodeOnly) {
    const beyond = escapeBeyondUnicode(text);
    if (beyond !== undefined) throw refuse('notUnicode', beyondUnicodeProblem(beyond));
  }
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ baseIRI: policy.base }).parse(text);
  } catch (error) {
    throw refuse('syntax', error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
  // Blank text parses to an object without a type: not an update either.
  if (parsed.type !== 'update') throw refuse('notUpdate', '');
  for (const operation of parsed.updates) vetOperation(operation, policy, refuse);
  return parsed;
}

/**
 * vetSparqlUpdate, then the update generated again from its parsed terms with full IRIs (no BASE, no
 * PREFIX): what is sent on is always generator output, never the request's text.
 */
export function normaliseSparqlUpdate(text: string, policy: UpdatePolicy): string {
  const parsed = vetSparqlUpdate(text, policy);
  const update = generator.stringify({ type: 'update', prefixes: {}, updates: parsed.updates });
  // A lone surrogate (escaped, or sent raw in a JSON string) cannot be written as UTF-8 upstream.
  if (policy.unicodeOnly && hasLoneSurrogate(update))
    throw refuser(policy)('notUnicode', LONE_SURROGATE_PROBLEM);
  return update;
}

type Refuse = (reason: UpdateRefusalReason, detail: string) => SparqlUpdateRefusal;

function refuser(policy: UpdatePolicy): Refuse {
  return (reason, detail) =>
    new SparqlUpdateRefusal(
      reason,
      detail,
      policy.message(reason, detail) ??
        `The SPARQL Update is refused (${reason}${detail ? `: ${detail}` : ''})`,
    );
}

function vetOperation(operation: sparqljs.UpdateOperation, policy: UpdatePolicy, refuse: Refuse): void {
  if (!('updateType' in operation)) throw refuse('operation', operation.type.toUpperCase());
  if (operation.graph !== undefined) throw refuse('with', 'WITH');
  if ('using' in operation && operation.using !== undefined) throw refuse('using', 'USING');
  const templates = [
    ...('insert' in operation ? operation.insert : []),
    ...('delete' in operation ? operation.delete : []),
  ];
  if (templates.some((quads) => quads.type === 'graph')) throw refuse('graphTemplate', 'GRAPH');
  if (operation.updateType === 'insertdelete') vetWhere(operation.where, policy, refuse);
  if (!policy.refuseServerManaged) return;
  for (const quads of templates) {
    for (const { predicate, object } of quads.triples) {
      if (!('termType' in predicate) || predicate.termType !== 'NamedNode') continue;
      if (isServerManaged(predicate.value, object)) {
        const statement = `<${predicate.value}>${object.termType === 'NamedNode' ? ` <${object.value}>` : ''}`;
        throw refuse('serverManaged', statement);
      }
    }
  }
}

/**
 * Walks a WHERE clause depth first, in document order. Patterns also sit inside expressions (FILTER
 * EXISTS, BIND(EXISTS …)) and sub-queries (their WHERE, projections, HAVING, ORDER BY), so every node
 * of the algebra is visited but RDF terms; a basic graph pattern holds only terms and property paths.
 */
function vetWhere(node: unknown, policy: UpdatePolicy, refuse: Refuse): void {
  if (Array.isArray(node)) {
    for (const item of node) vetWhere(item, policy, refuse);
    return;
  }
  if (typeof node !== 'object' || node === null || 'termType' in node) return;
  const type = (node as { type?: unknown }).type;
  switch (type) {
    case 'service':
      throw refuse('service', 'SERVICE');
    case 'graph':
      if (policy.refuseGraphPatterns) throw refuse('graphPattern', 'GRAPH');
      if (policy.bgpOnly) throw refuse('beyondBgp', 'GRAPH');
      break;
    case 'query':
      if (!policy.subqueries || policy.bgpOnly) throw refuse('beyondBgp', 'sub-queries');
      break;
    case 'bgp':
      if (policy.bgpOnly && (node as sparqljs.BgpPattern).triples.some((t) => !('termType' in t.predicate)))
        throw refuse('beyondBgp', 'property paths');
      return;
    default:
      // With bgpOnly the walk never leaves the WHERE clause's own patterns: FILTER, OPTIONAL, UNION,
      // MINUS, BIND, VALUES or a group.
      if (policy.bgpOnly && typeof type === 'string') throw refuse('beyondBgp', type.toUpperCase());
  }
  for (const value of Object.values(node)) vetWhere(value, policy, refuse);
}
