import { randomBytes } from 'node:crypto';
import { DCTERMS, PCDM, type TreeNode } from './tree-fixture.js';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

export interface CollectionShape {
  readonly series: number;
  readonly objectsPerSeries: number;
  /** Bytes of each object's binary. */
  readonly binaryBytes: number;
  /** An IRI outside the copied collection that it links to (kept as it is by a copy). */
  readonly outside: string;
}

/**
 * Issue 32's "Done when" collection: a PCDM collection of series of objects (nested containers), each with
 * a title in English and German, internal links between members (`pcdm:hasMember` from the collection,
 * `dcterms:relation` from each object to the next one, across series, `dcterms:isPartOf` up, a link to
 * another object's `#page-1` fragment and statements about the object's own `#page-1`), each object with a
 * binary (its file, titled, with a filename and media type), and links that leave the collection (an
 * outside resource, an external IRI), which a copy keeps. The second series' name has a space and an
 * umlaut, so path segments are decoded and re-encoded on the way.
 */
export function copyCollection(name: string, shape: CollectionShape): TreeNode {
  const seriesNames = Array.from({ length: shape.series }, (_, s) =>
    s === 1 ? `Übersicht ${s + 1}` : `series-${s + 1}`,
  );
  const objectPaths = seriesNames.flatMap((series) =>
    Array.from({ length: shape.objectsPerSeries }, (_, o) => `${series}/object-${o + 1}`),
  );
  const titles = (self: string, en: string, de: string) =>
    `<${self}> <${DCTERMS}title> ${JSON.stringify(en)}@en .\n<${self}> <${DCTERMS}title> ${JSON.stringify(de)}@de .\n`;
  return {
    name,
    statements: (iri) =>
      `<${iri('')}> <${RDF_TYPE}> <${PCDM}Collection> .\n` +
      titles(iri(''), 'Letters of the estate', 'Briefe des Nachlasses') +
      objectPaths.map((path) => `<${iri('')}> <${PCDM}hasMember> <${iri(path)}> .\n`).join('') +
      `<${iri('')}> <${DCTERMS}isReferencedBy> <${shape.outside}> .\n` +
      `<${iri('')}> <${DCTERMS}source> <https://example.org/finding-aid/42> .\n`,
    children: seriesNames.map((series, s) => ({
      name: series,
      statements: (iri) =>
        titles(iri(series), `Series ${s + 1}`, `Serie ${s + 1}`) +
        `<${iri(series)}> <${DCTERMS}isPartOf> <${iri('')}> .\n`,
      children: Array.from({ length: shape.objectsPerSeries }, (_, o) => {
        const path = `${series}/object-${o + 1}`;
        const next = objectPaths[(objectPaths.indexOf(path) + 1) % objectPaths.length]!;
        return {
          name: `object-${o + 1}`,
          statements: (iri) =>
            `<${iri(path)}> <${RDF_TYPE}> <${PCDM}Object> .\n` +
            titles(iri(path), `Letter ${s + 1}.${o + 1}`, `Brief ${s + 1}.${o + 1}`) +
            `<${iri(path)}> <${DCTERMS}relation> <${iri(next)}> .\n` +
            `<${iri(path)}> <${DCTERMS}references> <${iri(next)}#page-1> .\n` +
            `<${iri(path)}> <${PCDM}memberOf> <${iri('')}> .\n` +
            `<${iri(path)}> <${PCDM}hasFile> <${iri(`${path}/scan`)}> .\n` +
            `<${iri(path)}#page-1> <${DCTERMS}title> "Seite 1"@de .\n` +
            `<${iri(path)}> <${DCTERMS}date> "18${String(50 + o).padStart(2, '0')}-0${(s % 9) + 1}-01" .\n`,
          children: [
            {
              name: 'scan',
              binary: {
                bytes: randomBytes(shape.binaryBytes),
                filename: `letter-${s + 1}-${o + 1}.tif`,
                contentType: 'image/tiff',
              },
              statements: (iri) =>
                titles(
                  iri(`${path}/scan`),
                  `Scan of letter ${s + 1}.${o + 1}`,
                  `Scan des Briefes ${s + 1}.${o + 1}`,
                ) + `<${iri(`${path}/scan`)}> <${PCDM}fileOf> <${iri(path)}> .\n`,
            },
          ],
        };
      }),
    })),
  };
}
