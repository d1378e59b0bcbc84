import { describe, expect, it } from 'vitest';
import {
  childElements,
  parseTurtle,
  parseXml,
  premisChildren,
  premisText,
  PREMIS_NS,
} from '../../../test/support/audit/premis.js';
import type { AuditEntry, AuditEvent } from '../audit-event.js';
import { premisDocument } from './premis-model.js';
import { premisTurtle } from './premis-turtle.js';
import { premisXml } from './premis-xml.js';
import { serviceAgent } from './service-agent.js';
import { xmlAttribute, xmlText } from './xml-text.js';

const RESOURCE = 'http://localhost/rest/a';
const BINARY = 'http://localhost/rest/a/scan.tif';
const SERVICE = { name: 'Scriptorium', version: '9.8.7' };
const EVENT_TYPE = 'http://id.loc.gov/vocabulary/preservation/eventType/';

let nextId = 0;
function ev(action: AuditEntry['action'], fields: Partial<AuditEvent> = {}): AuditEvent {
  nextId += 1;
  return {
    id: nextId,
    time: `2026-11-28T07:00:${String(nextId).padStart(2, '0')}.000Z`,
    username: 'curator',
    action,
    repositoryViewId: 3,
    contextUri: RESOURCE,
    jobId: null,
    requestId: 'req-1',
    outcome: 'SUCCESS',
    detail: {},
    hash: 'h',
    ...fields,
  };
}

const TRIPLE = '<http://localhost/rest/a> <http://purl.org/dc/terms/title> "A" .';

function ledger(): AuditEvent[] {
  nextId = 0;
  return [
    ev('resource.create', { detail: { removed: [], added: [TRIPLE] } }),
    ev('metadata.update', { detail: { removed: [TRIPLE, TRIPLE], added: [TRIPLE] } }),
    ev('binary.upload', {
      contextUri: BINARY,
      username: 'other',
      detail: {
        digest: `urn:sha-512:${'ab'.repeat(64)}`,
        size: 1234,
        mimeType: 'image/tiff',
        filename: 'scan.tif',
      },
    }),
    ev('fixity.check', {
      contextUri: BINARY,
      username: null,
      outcome: 'FAILURE',
      detail: { status: 'BAD_CHECKSUM', digest: 'urn:sha-512:ff', size: 1234 },
    }),
    ev('version.create', { detail: { version: `${RESOURCE}/fcr:versions/1`, label: 'v1' } }),
    ev('job.apply', { jobId: 5, detail: { removed: [], added: [TRIPLE] } }),
    ev('resource.delete', { repositoryViewId: null, username: 'fedoraAdmin', detail: {} }),
    // Left out: configuration, sign-ins, transactions.
    ev('user.update', { contextUri: null, detail: { id: 2, name: 'x', fields: { password: '(changed)' } } }),
    ev('auth.login', { contextUri: null, outcome: 'FAILURE', detail: { reason: 'bad password' } }),
    ev('transaction.commit', { detail: { transaction: 'tx1', events: 2 } }),
  ];
}

describe('PREMIS 3.0 XML', () => {
  it('lists the objects, then every resource event in order, then the agents, in the PREMIS namespace', () => {
    const xml = premisXml(premisDocument(ledger().reverse(), SERVICE));
    const root = parseXml(xml).documentElement;
    expect(root?.namespaceURI).toBe(PREMIS_NS);
    expect(root?.localName).toBe('premis');
    expect(root?.getAttribute('version')).toBe('3.0');
    const order = childElements(root!).map((el) => el.localName);
    expect(order).toEqual([
      'object',
      'object',
      ...Array<string>(7).fill('event'),
      'agent',
      'agent',
      'agent',
      'agent',
    ]);

    const [entity, file] = premisChildren(root!, 'object');
    expect(entity!.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'type')).toBe(
      'premis:intellectualEntity',
    );
    expect(
      premisChildren(entity!, 'objectIdentifier').map((id) => premisText(id, 'objectIdentifierValue')),
    ).toEqual([RESOURCE, '3']);
    expect(file!.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'type')).toBe('premis:file');
    expect(premisText(file!, 'messageDigest')).toBe('ab'.repeat(64));
    expect(premisText(file!, 'messageDigestAlgorithm')).toBe('SHA-512');
    expect(premisText(file!, 'size')).toBe('1234');
    expect(premisText(file!, 'formatName')).toBe('image/tiff');
    expect(premisText(file!, 'originalName')).toBe('scan.tif');

    const events = premisChildren(root!, 'event');
    expect(events.map((event) => premisText(event, 'eventIdentifierValue'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(events.map((event) => premisText(event, 'eventType'))).toEqual([
      'creation',
      'modification',
      'ingestion',
      'fixity check',
      'replication',
      'modification',
      'deletion',
    ]);
    const valueUris = events.map((event) =>
      event.getElementsByTagNameNS(PREMIS_NS, 'eventType')[0]!.getAttribute('valueURI'),
    );
    expect(valueUris).toEqual(
      ['cre', 'mod', 'ing', 'fix', 'rep', 'mod', 'del'].map((code) => `${EVENT_TYPE}${code}`),
    );
    expect(premisText(events[0]!, 'eventDateTime')).toBe('2026-11-28T07:00:01.000Z');
    expect(premisText(events[1]!, 'eventDetail')).toBe(
      'Metadata changed: 2 triples removed, 1 added (through repository view 3)',
    );
    expect(premisText(events[5]!, 'eventDetail')).toContain('by curation job 5');
    expect(premisText(events[6]!, 'eventDetail')).toBe('Deleted (straight through /rest)');
    // The fixity check failed: its outcome, status and digest.
    expect(premisText(events[3]!, 'eventOutcome')).toBe('failure');
    expect(premisText(events[3]!, 'eventOutcomeDetailNote')).toBe(
      'status BAD_CHECKSUM; digest urn:sha-512:ff; size 1234',
    );
    expect(premisText(events[0]!, 'eventOutcome')).toBe('success');

    // The person as implementer, the service as executing program; the object by its URI.
    const links = premisChildren(events[0]!, 'linkingAgentIdentifier');
    expect(
      links.map((link) => [
        premisText(link, 'linkingAgentIdentifierValue'),
        premisText(link, 'linkingAgentRole'),
      ]),
    ).toEqual([
      ['curator', 'implementer'],
      ['Scriptorium 9.8.7', 'executing program'],
    ]);
    expect(premisChildren(events[3]!, 'linkingAgentIdentifier')).toHaveLength(1);
    expect(
      premisText(premisChildren(events[2]!, 'linkingObjectIdentifier')[0]!, 'linkingObjectIdentifierValue'),
    ).toBe(BINARY);

    const agents = premisChildren(root!, 'agent');
    expect(agents.map((agent) => [premisText(agent, 'agentName'), premisText(agent, 'agentType')])).toEqual([
      ['curator', 'person'],
      ['other', 'person'],
      ['fedoraAdmin', 'person'],
      ['Scriptorium', 'software'],
    ]);
    expect(premisText(agents[3]!, 'agentVersion')).toBe('9.8.7');
    // Never a configuration change's fields.
    expect(xml).not.toContain('(changed)');
    expect(xml).not.toContain('bad password');
  });

  it('escapes markup, quotes and emoji, and replaces characters XML 1.0 cannot carry', () => {
    const nasty = `a<b>&c"d'e 📚 \u0001f\uD800g\r\nh`;
    nextId = 0;
    const xml = premisXml(
      premisDocument(
        [
          ev('binary.upload', {
            contextUri: `http://localhost/rest/x?a=1&b=<2>`,
            username: nasty,
            detail: { digest: 'urn:sha-512:00', size: 1, mimeType: nasty, filename: nasty },
          }),
        ],
        SERVICE,
      ),
    );
    expect(xml).not.toContain('\u0001');
    const root = parseXml(xml).documentElement!;
    const expected = `a<b>&c"d'e 📚 \uFFFDf\uFFFDg\r\nh`;
    expect(premisText(root, 'originalName')).toBe(expected);
    expect(premisText(root, 'formatName')).toBe(expected);
    expect(premisText(root, 'agentName')).toBe(expected);
    expect(premisText(root, 'objectIdentifierValue')).toBe('http://localhost/rest/x?a=1&b=<2>');
  });

  it('escapes attribute values whole', () => {
    expect(xmlAttribute(`"'<&>\t\n`)).toBe('&quot;&apos;&lt;&amp;&gt;&#9;&#10;');
    expect(xmlText(`<&>"\u0008`)).toBe('&lt;&amp;&gt;"\uFFFD');
  });
});

describe('PREMIS 3 RDF (Turtle)', () => {
  it('has one premis:Event per event with its LoC eventType IRI, agents by role and the objects', async () => {
    const turtle = await premisTurtle(premisDocument(ledger(), SERVICE), {
      base: 'http://localhost/audit/premis',
    });
    const quads = parseTurtle(turtle);
    const subjectsOf = (predicate: string, object: string) =>
      quads
        .filter((q) => q.predicate.value === predicate && q.object.value === object)
        .map((q) => q.subject.value);
    const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
    const events = subjectsOf(TYPE, 'http://www.loc.gov/premis/rdf/v3/Event');
    expect(events).toHaveLength(7);
    const typeOf = (event: string) =>
      quads.find(
        (q) =>
          q.subject.value === event && q.predicate.value === TYPE && q.object.value.startsWith(EVENT_TYPE),
      )?.object.value;
    expect(events.map(typeOf)).toEqual(
      ['cre', 'mod', 'ing', 'fix', 'rep', 'mod', 'del'].map((c) => `${EVENT_TYPE}${c}`),
    );
    expect(subjectsOf(TYPE, 'http://www.loc.gov/premis/rdf/v3/Person')).toHaveLength(3);
    expect(subjectsOf(TYPE, 'http://www.loc.gov/premis/rdf/v3/SoftwareAgent')).toEqual([
      'http://localhost/audit/premis#agent-service',
    ]);
    expect(subjectsOf(TYPE, 'http://www.loc.gov/premis/rdf/v3/File')).toEqual([BINARY]);
    expect(subjectsOf(TYPE, 'http://www.loc.gov/premis/rdf/v3/IntellectualEntity')).toEqual([RESOURCE]);
    expect(
      subjectsOf(
        'http://id.loc.gov/vocabulary/preservation/eventRelatedAgentRole/imp',
        'http://localhost/audit/premis#agent-curator',
      ),
    ).toHaveLength(4);
    expect(
      subjectsOf(
        'http://www.loc.gov/premis/rdf/v3/outcome',
        'http://id.loc.gov/vocabulary/preservation/eventOutcome/fai',
      ),
    ).toEqual(['http://localhost/audit/premis#event-4']);
    expect(subjectsOf('http://www.w3.org/ns/prov#generated', RESOURCE)).toEqual([
      'http://localhost/audit/premis#event-1',
    ]);
  });
});

describe('serviceAgent', () => {
  it("reads the service's version from package.json", () => {
    expect(serviceAgent()).toEqual({
      name: 'Scriptorium',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/) as string,
    });
  });
});
