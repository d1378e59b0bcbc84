import { Badge, Box, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorAlert, PendingScreen } from '../../../components/query-states';
import {
  COPY_REPORT_PAGE_SIZE,
  copyReportQuery,
  downloadReportCsv,
  isRunning,
  type CopyResult,
  type CurationJob,
} from '../api';

/** Dark shades only: white text on each passes AA contrast; the text says the outcome. */
const OUTCOME_COLOR: Readonly<Record<CopyResult['outcome'], string>> = {
  PLANNED: 'violet.9',
  CONFLICT: 'orange.9',
  COPIED: 'teal.9',
  FAILED: 'red.9',
  REMOVED: 'grape.9',
  KEPT: 'gray.7',
  UNREADABLE: 'red.9',
};

/**
 * A COPY job's per-resource report (DECISIONS.md §16), in plan order, a page at a time: where each
 * resource goes, its bytes, how its digest compared on arrival and its outcome; and the CSV download.
 * While the job runs the report is read again as it settles (the job screen invalidates it on each state).
 */
export function CopyReport({ job }: { job: CurationJob }) {
  const [page, setPage] = useState(0);
  const report = useQuery({
    ...copyReportQuery(job.id, page),
    refetchInterval: isRunning(job) ? 3_000 : false,
  });
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const rows = report.data?.slice(0, COPY_REPORT_PAGE_SIZE) ?? [];
  const more = (report.data?.length ?? 0) > COPY_REPORT_PAGE_SIZE;
  return (
    <Stack component="section" aria-labelledby="copy-report-heading">
      <Group justify="space-between">
        <Title order={2} id="copy-report-heading">
          Copy report
        </Title>
        <Button
          variant="light"
          loading={downloading}
          onClick={async () => {
            setDownloading(true);
            setDownloadError(null);
            try {
              await downloadReportCsv(job.id, 'copy');
            } catch (failure) {
              setDownloadError(failure);
            } finally {
              setDownloading(false);
            }
          }}
        >
          Download report (CSV)
        </Button>
      </Group>
      <Text size="sm">Versions are not copied, only each resource’s current state.</Text>
      {downloadError !== null && <ErrorAlert error={downloadError} />}
      {report.isPending ? (
        <PendingScreen />
      ) : report.isError ? (
        <ErrorAlert error={report.error} onRetry={() => void report.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState>{isRunning(job) ? 'The plan is being made.' : 'Nothing was planned.'}</EmptyState>
      ) : (
        <>
          {/* Scrolls sideways on a narrow screen: focusable, so the keyboard scrolls it too. */}
          <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Copy report rows">
            <Table striped miw={720} aria-busy={report.isPlaceholderData}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Source</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Bytes</Table.Th>
                  <Table.Th>Digest</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={`${row.sourceUri} ${row.targetUri}`}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{row.sourceUri}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{row.targetUri}</Table.Td>
                    <Table.Td>{row.kind}</Table.Td>
                    <Table.Td>{row.bytes ?? '—'}</Table.Td>
                    <Table.Td>
                      {row.digestCheck === null
                        ? (row.digestAlgorithm ?? '—')
                        : `${row.digestAlgorithm ?? ''} ${row.digestCheck}`.trim()}
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        <Badge color={OUTCOME_COLOR[row.outcome]} variant="filled">
                          {row.outcome}
                        </Badge>
                        {row.error !== null && (
                          <Text size="xs" c="red.9" style={{ wordBreak: 'break-word' }}>
                            {row.error}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          {(page > 0 || more) && (
            <Group gap="sm" role="group" aria-label="Report pages">
              <Button variant="default" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous rows
              </Button>
              <Text size="sm">
                Rows {page * COPY_REPORT_PAGE_SIZE + 1}–{page * COPY_REPORT_PAGE_SIZE + rows.length}
              </Text>
              <Button variant="default" size="sm" disabled={!more} onClick={() => setPage(page + 1)}>
                Next rows
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
