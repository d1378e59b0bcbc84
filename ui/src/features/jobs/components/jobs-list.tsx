import { Table, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { AnchorLink } from '../../../components/links';
import { EmptyState } from '../../../components/query-states';
import { jobsQuery } from '../api';
import { formatTime, JobProgress, JobStateBadge } from './job-state';

/** The jobs this user may see, newest first; each opens its detail. */
export function JobsList() {
  const { data: jobs } = useSuspenseQuery(jobsQuery());
  if (jobs.length === 0)
    return (
      <EmptyState>No curation jobs yet. Start one from a container in the repository browser.</EmptyState>
    );
  return (
    <Table striped highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Job</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Scope</Table.Th>
          <Table.Th>Progress</Table.Th>
          <Table.Th>Created</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => (
          <Table.Tr key={job.id}>
            <Table.Td>
              <AnchorLink to="/jobs/$jobId" params={{ jobId: String(job.id) }}>
                Job {job.id}
              </AnchorLink>
            </Table.Td>
            <Table.Td>{job.kind}</Table.Td>
            <Table.Td>
              <JobStateBadge state={job.state} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{job.scope}</Text>
              <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                {job.contextUri === '' ? 'Root' : job.contextUri}
              </Text>
            </Table.Td>
            <Table.Td miw={160}>
              <JobProgress job={job} label={`Job ${job.id} progress`} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{formatTime(job.created)}</Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
