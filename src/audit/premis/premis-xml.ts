import type { FileCharacteristics, PremisDocument, PremisEvent, PremisObject } from './premis-model.js';
import {
  authorityUri,
  EXECUTING_PROGRAM,
  FAILURE,
  hashFunction,
  IMPLEMENTER,
  PERSON,
  SOFTWARE,
  SUCCESS,
  valueUri,
  type LocTerm,
} from './premis-vocabulary.js';
import { element, xmlDocument, type XmlElement } from './xml-text.js';

export const PREMIS_NS = 'http://www.loc.gov/premis/v3';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const PREMIS_XSD = 'https://www.loc.gov/standards/premis/premis.xsd';

/** The identifier types this document uses (PREMIS leaves them to the repository). */
export const IDENTIFIER_TYPES = {
  uri: 'URI',
  view: 'Scriptorium repository view',
  event: 'Scriptorium audit event',
  person: 'Scriptorium username',
  software: 'Scriptorium software',
} as const;

const p = (name: string) => `premis:${name}`;

/** A value from a LoC vocabulary: its label, with the vocabulary and the term's IRI as attributes. */
function term(name: string, value: LocTerm): XmlElement {
  return element(p(name), value.label, {
    authority: value.vocabulary,
    authorityURI: authorityUri(value),
    valueURI: valueUri(value),
  });
}

function identifier(kind: string, type: string, value: string, extra: XmlElement[] = []): XmlElement {
  return element(p(`${kind}Identifier`), [
    element(p(`${kind}IdentifierType`), type),
    element(p(`${kind}IdentifierValue`), value),
    ...extra,
  ]);
}

/** The service's own identifier value: its name and version. */
export function serviceIdentifier(document: PremisDocument): string {
  return `${document.service.name} ${document.service.version}`;
}

/**
 * PREMIS 3.0 XML (namespace http://www.loc.gov/premis/v3): the objects, then the events oldest first,
 * then the agents, as the schema orders them. Every value is escaped; characters XML 1.0 cannot carry are
 * replaced by U+FFFD. (With no events there is no object, which the schema wants at least one of: the
 * document is still well-formed and says, truthfully, that nothing was recorded.)
 */
export function premisXml(document: PremisDocument): string {
  return xmlDocument(
    element(
      p('premis'),
      [
        ...document.objects.map(objectElement),
        ...document.events.map((event) => eventElement(event, document)),
        ...document.persons.map(personElement),
        softwareElement(document),
      ],
      {
        'xmlns:premis': PREMIS_NS,
        'xmlns:xsi': XSI_NS,
        'xsi:schemaLocation': `${PREMIS_NS} ${PREMIS_XSD}`,
        version: '3.0',
      },
    ),
  );
}

function objectElement(object: PremisObject): XmlElement {
  const identifiers = [
    identifier('object', IDENTIFIER_TYPES.uri, object.uri),
    ...object.viewIds.map((id) => identifier('object', IDENTIFIER_TYPES.view, String(id))),
  ];
  if (object.file === undefined)
    return element(p('object'), identifiers, { 'xsi:type': 'premis:intellectualEntity' });
  const { filename } = object.file;
  return element(
    p('object'),
    [
      ...identifiers,
      characteristics(object.file),
      ...(filename === undefined ? [] : [element(p('originalName'), filename)]),
    ],
    { 'xsi:type': 'premis:file' },
  );
}

/** fixity, size, format: in the schema's order; the format is required, "unknown" when the ledger has none. */
function characteristics(file: FileCharacteristics): XmlElement {
  const fixity: XmlElement[] = [];
  const digest = file.digest === undefined ? undefined : /^urn:([^:]+):(.+)$/i.exec(file.digest);
  if (digest !== null && digest !== undefined) {
    const [, algorithm = '', value = ''] = digest;
    const known = hashFunction(algorithm);
    fixity.push(
      element(p('fixity'), [
        known === undefined
          ? element(p('messageDigestAlgorithm'), algorithm)
          : term('messageDigestAlgorithm', known),
        element(p('messageDigest'), value),
      ]),
    );
  }
  return element(p('objectCharacteristics'), [
    ...fixity,
    ...(file.size === undefined ? [] : [element(p('size'), String(file.size))]),
    element(p('format'), [
      element(p('formatDesignation'), [element(p('formatName'), file.mimeType ?? 'unknown')]),
    ]),
  ]);
}

function eventElement(event: PremisEvent, document: PremisDocument): XmlElement {
  const agents = [
    ...(event.username === null
      ? []
      : [
          identifier('linkingAgent', IDENTIFIER_TYPES.person, event.username, [
            term('linkingAgentRole', IMPLEMENTER),
          ]),
        ]),
    identifier('linkingAgent', IDENTIFIER_TYPES.software, serviceIdentifier(document), [
      term('linkingAgentRole', EXECUTING_PROGRAM),
    ]),
  ];
  return element(p('event'), [
    identifier('event', IDENTIFIER_TYPES.event, String(event.id)),
    term('eventType', event.type),
    element(p('eventDateTime'), event.time),
    element(p('eventDetailInformation'), [element(p('eventDetail'), event.detail)]),
    element(p('eventOutcomeInformation'), [
      term('eventOutcome', event.outcome === 'SUCCESS' ? SUCCESS : FAILURE),
      ...(event.outcomeDetail === undefined
        ? []
        : [element(p('eventOutcomeDetail'), [element(p('eventOutcomeDetailNote'), event.outcomeDetail)])]),
    ]),
    ...agents,
    identifier('linkingObject', IDENTIFIER_TYPES.uri, event.objectUri),
  ]);
}

function personElement(username: string): XmlElement {
  return element(p('agent'), [
    identifier('agent', IDENTIFIER_TYPES.person, username),
    element(p('agentName'), username),
    term('agentType', PERSON),
  ]);
}

function softwareElement(document: PremisDocument): XmlElement {
  return element(p('agent'), [
    identifier('agent', IDENTIFIER_TYPES.software, serviceIdentifier(document)),
    element(p('agentName'), document.service.name),
    term('agentType', SOFTWARE),
    element(p('agentVersion'), document.service.version),
  ]);
}
