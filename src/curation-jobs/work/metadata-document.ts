import type { Quad, Term } from '@rdfjs/types';
import { isValidIri, literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { RDF_LANG_STRING, XSD } from '../../linked-data/rdf/vocab.js';
import type { MappingDocument } from '../../operators/engine/mapping-document.js';
import type { FieldNaming } from './field-naming.js';

/**
 * A resource's metadata as the operators see it (DECISIONS.md §9), and back: the document of field → values,
 * and for each field the triples its values were read from, so a transformed value can keep its original's
 * form and an untouched value is never rewritten.
 */
export interface MetadataDocument {
  readonly subject: string;
  readonly document: MappingDocument;
  /** Per field, the triples behind its values, in the same order. */
  readonly originals: ReadonlyMap<string, readonly Quad[]>;
}

/** The triples the operators' result removes from and adds to the resource. */
export interface MetadataChange {
  readonly removed: Quad[];
  readonly added: Quad[];
}

/** The operators' result cannot be written back (the resource then fails; nothing of it is written). */
export class UnmappableValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnmappableValueError';
  }
}

/**
 * Reads the resource's own metadata triples (see `FieldNaming.isMetadata`) as a document, in the order the
 * repository served them. Blank-node objects are left out: a job never removes or adds them.
 */
export function readMetadata(subject: string, quads: readonly Quad[], naming: FieldNaming): MetadataDocument {
  const document = Object.create(null) as MappingDocument;
  const originals = new Map<string, Quad[]>();
  for (const q of quads) {
    if (q.object.termType === 'BlankNode' || !naming.isMetadata(q, subject)) continue;
    const field = naming.fieldOf(q.predicate.value);
    (document[field] ??= []).push(q.object.value);
    const list = originals.get(field);
    if (list === undefined) originals.set(field, [q]);
    else list.push(q);
  }
  return { subject, document, originals };
}

/**
 * The difference between a read document and the operators' result, per predicate. A value present before
 * and after is untouched (whatever its position). Of the rest, the k-th new value of a predicate takes the form
 * of the k-th value it replaces — language tag, datatype, or IRI (which must stay an absolute IRI) — and
 * values beyond those are plain literals. Throws `UnmappableValueError` for a field that names no metadata
 * predicate of the view or a value that cannot keep its original's form.
 */
export function changesBetween(
  before: MetadataDocument,
  after: MappingDocument,
  naming: FieldNaming,
): MetadataChange {
  const beforeByPredicate = new Map<string, Quad[]>();
  for (const quads of before.originals.values()) {
    for (const q of quads) {
      const list = beforeByPredicate.get(q.predicate.value);
      if (list === undefined) beforeByPredicate.set(q.predicate.value, [q]);
      else list.push(q);
    }
  }
  const afterByPredicate = new Map<string, string[]>();
  for (const [field, values] of Object.entries(after)) {
    const predicate = naming.predicateOf(field);
    if (predicate === undefined || !naming.isMetadataPredicate(predicate)) {
      // An unchanged field the job read is fine whatever its name; a new one must name view metadata.
      if (sameValues(before.document[field], values)) continue;
      throw new UnmappableValueError(`The field ${field} names no metadata predicate of this view`);
    }
    const list = afterByPredicate.get(predicate);
    if (list === undefined) afterByPredicate.set(predicate, [...values]);
    else list.push(...values);
  }
  const removed: Quad[] = [];
  const added: Quad[] = [];
  const predicates = new Set([...beforeByPredicate.keys(), ...afterByPredicate.keys()]);
  for (const predicate of predicates) {
    const change = predicateChange(
      before.subject,
      predicate,
      beforeByPredicate.get(predicate) ?? [],
      afterByPredicate.get(predicate) ?? [],
    );
    removed.push(...change.removed);
    added.push(...change.added);
  }
  return { removed, added };
}

function sameValues(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a?.length === b.length && a.every((value, i) => value === b[i]);
}

function predicateChange(
  subject: string,
  predicate: string,
  before: readonly Quad[],
  after: readonly string[],
): MetadataChange {
  // Pair each value kept as it was with one original of the same lexical form.
  const unmatched = new Map<string, number[]>();
  before.forEach((q, index) => {
    const list = unmatched.get(q.object.value);
    if (list === undefined) unmatched.set(q.object.value, [index]);
    else list.push(index);
  });
  const kept = new Set<number>();
  // Insertion-ordered: a value repeated is one triple.
  const fresh = new Set<string>();
  for (const value of after) {
    const index = unmatched.get(value)?.shift();
    if (index === undefined) fresh.add(value);
    else kept.add(index);
  }
  const keptValues = new Set(before.filter((_, index) => kept.has(index)).map((q) => q.object.value));
  const removed = before.filter((_, index) => !kept.has(index));
  const added: Quad[] = [];
  for (const value of fresh) {
    // A repeat of a value kept as it was adds nothing.
    if (keptValues.has(value)) continue;
    const object = shapedLike(removed[added.length]?.object, value);
    added.push(quad(namedNode(subject), namedNode(predicate), object));
  }
  return { removed, added };
}

/** A value in the form of the term it replaces (a plain literal when it replaces none). */
function shapedLike(original: Term | undefined, value: string) {
  if (original?.termType === 'NamedNode') {
    if (!isValidIri(value)) {
      throw new UnmappableValueError(
        `The value ${JSON.stringify(value)} replaces the IRI <${original.value}> but is not an absolute IRI`,
      );
    }
    return namedNode(value);
  }
  if (original?.termType === 'Literal') {
    if (original.language !== '') return literal(value, original.language);
    const datatype = original.datatype.value;
    if (datatype !== XSD.string && datatype !== RDF_LANG_STRING) return literal(value, original.datatype);
  }
  return literal(value);
}

/** Identity of an object term: kind, lexical form, language (tags are case-insensitive) or datatype. */
export function termKey(term: Term): string {
  if (term.termType !== 'Literal') return `${term.termType} ${term.value}`;
  const datatype = term.language === '' ? term.datatype.value : RDF_LANG_STRING;
  return `Literal ${term.language.toLowerCase()} ${datatype} ${term.value}`;
}

/**
 * The pure removals of a change: removed triples that no added triple replaces. Within one predicate the
 * k-th added value replaces the k-th removed one (the pairing `changesBetween` makes to give a new value its
 * original's form), so the removed values of a predicate beyond the number it adds are lost outright — a
 * curator must see those apart from values rewritten (two dates normalized to one date, a value mapped onto
 * another already there). `removed` and `added` in the order `changesBetween` answered them.
 */
export function pureRemovals(removed: readonly Quad[], added: readonly Quad[]): Quad[] {
  const replacements = new Map<string, number>();
  for (const q of added) replacements.set(q.predicate.value, (replacements.get(q.predicate.value) ?? 0) + 1);
  return removed.filter((q) => {
    const left = replacements.get(q.predicate.value) ?? 0;
    replacements.set(q.predicate.value, left - 1);
    return left <= 0;
  });
}
