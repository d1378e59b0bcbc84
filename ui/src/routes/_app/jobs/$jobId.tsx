import { createFileRoute } from '@tanstack/react-router';
import { jobQuery } from '../../../features/jobs/api';
import { JobDetail } from '../../../features/jobs/components/job-detail';

export const Route = createFileRoute('/_app/jobs/$jobId')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(jobQuery(Number(params.jobId))),
  component: JobPage,
});

function JobPage() {
  const { jobId } = Route.useParams();
  return <JobDetail id={Number(jobId)} />;
}
