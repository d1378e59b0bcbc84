import { DOMParser, type Element } from '@xmldom/xmldom';
import { Parser, type Quad } from 'n3';
import { SaxesParser } from 'saxes';

export const PREMIS_NS = 'http://www.loc.gov/premis/v3';

/**
 * Parses XML strictly: saxes checks well-formedness as XML 1.0 defines it (characters XML cannot carry, a
 * stray `&`, namespaces), which xmldom lets pass; xmldom then gives the DOM, any error of its failing too.
 */
export function parseXml(xml: string) {
  const sax = new SaxesParser({ xmlns: true });
  let problem: Error | undefined;
  sax.on('error', (error) => {
    problem ??= error;
  });
  sax.write(xml).close();
  if (problem !== undefined) throw new Error(`Not well-formed XML: ${problem.message}`);
  return new DOMParser({
    onError: (level, message) => {
      // Its only warning is a heuristic about U+FFFD, which the builder writes on purpose.
      if (level !== 'warning') throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
}

/** The element children of `parent` (text nodes skipped). */
export function childElements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling)
    if (node.nodeType === node.ELEMENT_NODE) out.push(node as Element);
  return out;
}

/** The PREMIS child elements of `parent` with this local name. */
export function premisChildren(parent: Element, local: string): Element[] {
  return childElements(parent).filter((el) => el.namespaceURI === PREMIS_NS && el.localName === local);
}

/** The text of the first PREMIS descendant with this local name. */
export function premisText(parent: Element, local: string): string | undefined {
  return parent.getElementsByTagNameNS(PREMIS_NS, local)[0]?.textContent ?? undefined;
}

export function parseTurtle(turtle: string): Quad[] {
  return new Parser({ format: 'text/turtle' }).parse(turtle);
}
