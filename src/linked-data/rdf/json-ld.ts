import jsonld from 'jsonld';
import type N3 from 'n3';
import { RdfInputRefusedError } from './errors.js';
import { toN3Quad, type PlainTerm } from './terms.js';

interface JsonLdQuad {
  subject: PlainTerm;
  predicate: PlainTerm;
  object: PlainTerm;
  graph: PlainTerm;
}

/**
 * The one JSON-LD set-up for reading. No network: a remote @context is refused instead of fetched (it
 * would be a second, unchecked request chosen by the document). `safe`: terms JSON-LD would silently
 * drop (invalid IRIs, undefined terms) are errors instead.
 */
export async function readJsonLd(text: string, baseIri: string, safe: boolean): Promise<N3.Quad[]> {
  const document = JSON.parse(text) as jsonld.JsonLdDocument;
  let refused: string | undefined;
  let dataset: JsonLdQuad[];
  try {
    dataset = (await jsonld.toRDF(document, {
      base: baseIri,
      safe,
      documentLoader: (url: string) => {
        refused = url;
        return Promise.reject(new Error(`remote JSON-LD contexts are not loaded (${url.slice(0, 100)})`));
      },
    } as jsonld.Options.ToRdf)) as unknown as JsonLdQuad[];
  } catch (error) {
    // jsonld reports a refused context as a generic dereferencing failure; say what happened.
    if (refused !== undefined) {
      throw new RdfInputRefusedError(`remote JSON-LD contexts are not loaded (${refused.slice(0, 100)})`);
    }
    throw error;
  }
  return dataset.map(toN3Quad);
}

/** Expanded JSON-LD from N-Quads; compacted with `prefixes` as its context when they are given. */
export async function writeJsonLd(
  nquads: string,
  prefixes?: Readonly<Record<string, string>>,
): Promise<string> {
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads', useNativeTypes: false });
  if (prefixes !== undefined)
    return JSON.stringify(await jsonld.compact(expanded, { '@context': { ...prefixes } }));
  return JSON.stringify(expanded);
}
