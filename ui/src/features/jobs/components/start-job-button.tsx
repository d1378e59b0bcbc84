import type { ResourceRef } from '../../../api/context-uri';
import { ButtonLink } from '../../../components/links';

/** Opens the new-job screen for this container (its view and IRI; a job never runs in a transaction). */
export function StartJobButton({ resource }: { resource: ResourceRef }) {
  return (
    <ButtonLink
      to="/jobs/new"
      search={{ viewId: resource.view.id, ...(resource.uri === undefined ? {} : { uri: resource.uri }) }}
      variant="light"
      size="sm"
    >
      Start curation job
    </ButtonLink>
  );
}
