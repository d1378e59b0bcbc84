import { Accordion, Table, Text } from '@mantine/core';
import type { Triple } from '../api';
import { compactIri, type Prefix } from '../terms';
import { TermView } from './term-view';

/** The server-managed properties (rdf:type, fedora:created, …), folded away under their count. */
export function ManagedProperties({ properties }: { properties: readonly Triple[] }) {
  return (
    <Accordion variant="contained" chevronPosition="left">
      <Accordion.Item value="properties">
        <Accordion.Control>Properties ({properties.length}, managed by the repository)</Accordion.Control>
        <Accordion.Panel>
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing={4} layout="fixed">
              <Table.Tbody>
                {properties.map((triple) => (
                  <Table.Tr key={`${triple.predicate} ${triple.object}`}>
                    <Table.Td w="35%" style={{ verticalAlign: 'top' }}>
                      <Text size="xs" style={{ wordBreak: 'break-all' }}>
                        {compactIri(triple.predicate, PROPERTY_PREFIXES) ?? triple.predicate}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <TermView wire={triple.object} prefixes={PROPERTY_PREFIXES} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

/** Well-known prefixes for the server-managed properties. */
const PROPERTY_PREFIXES: readonly Prefix[] = [
  { abbreviation: 'rdf', namespace: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' },
  { abbreviation: 'rdfs', namespace: 'http://www.w3.org/2000/01/rdf-schema#' },
  { abbreviation: 'xsd', namespace: 'http://www.w3.org/2001/XMLSchema#' },
  { abbreviation: 'fedora', namespace: 'http://fedora.info/definitions/v4/repository#' },
  { abbreviation: 'ldp', namespace: 'http://www.w3.org/ns/ldp#' },
  { abbreviation: 'ebucore', namespace: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#' },
  { abbreviation: 'premis', namespace: 'http://www.loc.gov/premis/rdf/v1#' },
  { abbreviation: 'memento', namespace: 'http://mementoweb.org/ns#' },
];
