import type { Complete } from './client';
import type { paths } from './schema.gen';

/** A RepositoryViewContext as GET /repository-view-context/{type}/{id} answers it. */
export type Context = Complete<
  NonNullable<
    NonNullable<
      paths['/repository-view-context/{type}/{repositoryViewId}']['get']['responses'][200]['content']['application/json']['payload']
    >['RepositoryViewContext']
  >
>;
