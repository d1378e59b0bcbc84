/**
 * Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other than tab,
 * line feed and carriage return, lone surrogates, U+FFFE and U+FFFF.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Replaces what XML cannot carry with U+FFFD, so the reader sees that something was there. */
export function xmlSafe(value: string): string {
  return value.replace(NOT_XML, '\uFFFD');
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  // A parser turns a raw CR (and CR LF) into LF; a reference keeps it.
  '\r': '&#13;',
};

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  // Attribute values are whitespace-normalised by parsers; references survive.
  '\t': '&#9;',
  '\n': '&#10;',
};

/** Character data: safe characters, markup escaped. */
export function xmlText(value: string): string {
  return xmlSafe(value).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/** An attribute value (written in double quotes). */
export function xmlAttribute(value: string): string {
  return xmlSafe(value).replace(/[&<>"'\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

/** An element as a tree the writer serialises: text, or children. */
export interface XmlElement {
  readonly name: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly children?: readonly XmlElement[];
  readonly text?: string;
}

export function element(
  name: string,
  content: string | readonly XmlElement[],
  attributes?: Readonly<Record<string, string>>,
): XmlElement {
  return typeof content === 'string'
    ? { name, text: content, ...(attributes === undefined ? {} : { attributes }) }
    : { name, children: content, ...(attributes === undefined ? {} : { attributes }) };
}

/** Serialises a document: the XML declaration, then the root, indented by two spaces per level. */
export function xmlDocument(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, 0, out);
  return out.join('');
}

function write(node: XmlElement, depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  const attributes = Object.entries(node.attributes ?? {})
    .map(([name, value]) => ` ${name}="${xmlAttribute(value)}"`)
    .join('');
  if (node.text !== undefined) {
    out.push(`${indent}<${node.name}${attributes}>${xmlText(node.text)}</${node.name}>\n`);
    return;
  }
  const children = node.children ?? [];
  if (children.length === 0) {
    out.push(`${indent}<${node.name}${attributes}/>\n`);
    return;
  }
  out.push(`${indent}<${node.name}${attributes}>\n`);
  for (const child of children) write(child, depth + 1, out);
  out.push(`${indent}</${node.name}>\n`);
}
