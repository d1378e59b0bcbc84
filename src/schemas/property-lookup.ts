import { UpstreamFailedError } from '../shared/errors.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { formatFor, VOCABULARY_DOCUMENT } from '../linked-data/rdf/media-types.js';
import { parseRdf } from '../linked-data/rdf/parse.js';
import { extractProperties } from './rdf-properties.js';
import type { Property } from './schema.js';
import { findBundledVocabulary } from './vocabulary-catalogue.js';
import { VocabularyFetchError, type FetchedDocument } from './vocabulary-fetcher.js';

export interface DocumentFetcher {
  fetch(url: string): Promise<FetchedDocument>;
}

const MAX_REASON = 300;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_REASON ? `${oneLine.slice(0, MAX_REASON)}…` : oneLine;
}

/**
 * The properties a namespace defines (`GET /schema/properties`): well-known vocabularies from the
 * bundled catalogue, any other by reading the namespace URI as an RDF document. Every failure is an
 * UpstreamFailedError whose message starts with `GET <namespace>: ` and says why.
 */
export class PropertyLookup {
  constructor(private readonly fetcher: DocumentFetcher) {}

  async listProperties(namespace: string): Promise<Property[]> {
    const bundled = findBundledVocabulary(namespace);
    if (bundled !== undefined) return bundled.properties.map((p) => ({ uri: p.uri, label: p.label }));

    const failed = (reason: string, cause?: unknown) =>
      new UpstreamFailedError(`GET ${namespace}: ${clip(reason)}`, { cause });
    let document: FetchedDocument;
    try {
      document = await this.fetcher.fetch(namespace);
    } catch (error) {
      if (error instanceof VocabularyFetchError) throw failed(error.message, error);
      throw error;
    }
    const type = mediaTypeOf(document.contentType);
    const mediaType = type || 'no content type';
    if (formatFor(type, VOCABULARY_DOCUMENT) === undefined) {
      throw failed(`the answer is ${mediaType}, not an RDF syntax read here`);
    }
    try {
      return extractProperties(
        await parseRdf(document.body, type, VOCABULARY_DOCUMENT, document.url),
        namespace,
      );
    } catch (error) {
      throw failed(
        `could not parse ${mediaType}: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
  }
}
