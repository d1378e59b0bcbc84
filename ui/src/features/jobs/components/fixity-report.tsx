import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import { downloadReportCsv, isRunning, reportQuery, type CurationJob } from '../api';

/** A FIXITY job's results, failures first (the service's order), and the CSV download. */
export function FixityReport({ job }: { job: CurationJob }) {
  const ready = !isRunning(job);
  const report = useQuery({ ...reportQuery(job.id), enabled: ready });
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  return (
    <Stack component="section" aria-labelledby="fixity-report-heading">
      <Group justify="space-between">
        <Title order={2} id="fixity-report-heading">
          Fixity report
        </Title>
        {ready && (
          <Button
            variant="light"
            loading={downloading}
            onClick={async () => {
              setDownloading(true);
              setDownloadError(null);
              try {
                await downloadReportCsv(job.id);
              } catch (failure) {
                setDownloadError(failure);
              } finally {
                setDownloading(false);
              }
            }}
          >
            Download report (CSV)
          </Button>
        )}
      </Group>
      {downloadError !== null && <ErrorAlert error={downloadError} />}
      {!ready ? (
        <EmptyState>The report appears here once every binary is checked.</EmptyState>
      ) : report.isPending ? (
        <PendingScreen />
      ) : report.isError ? (
        <ErrorAlert error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data.length === 0 ? (
        <EmptyState>No binaries were checked.</EmptyState>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Binary</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Digest or error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.data.map((result) => (
              <Table.Tr key={result.contextUri}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{result.contextUri}</Table.Td>
                <Table.Td>
                  <Badge color={result.status === 'SUCCESS' ? 'teal.9' : 'red.9'} variant="filled">
                    {result.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{result.size ?? '—'}</Table.Td>
                <Table.Td>
                  <Text
                    size="xs"
                    ff="monospace"
                    c={result.error === null ? undefined : 'red.9'}
                    style={{ wordBreak: 'break-all' }}
                  >
                    {result.error ?? result.messageDigest ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
