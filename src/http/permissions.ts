import type { Role } from '../auth/roles.js';

/**
 * THE permission table (DECISIONS.md §5), written once: the lowest role allowed to call each route of
 * the interface, including the repository-view routes still to come. `server.ts` refuses to register
 * an API route that has no entry here, so a new route cannot forget its permission, and the route × role
 * test reads this table as its input.
 *
 * Finer rules live in the services: a CURATOR sees and edits only the repository views they curate;
 * a USER may update only their own names and e-mail.
 */
export const PERMISSIONS: Readonly<Record<string, Role>> = {
  'GET /health': 'ROLE_ANONYMOUS',
  // Probes for load balancers and orchestrators (DECISIONS.md §17): public like GET /health.
  'GET /health/live': 'ROLE_ANONYMOUS',
  'GET /health/ready': 'ROLE_ANONYMOUS',
  // Prometheus (DECISIONS.md §17): ADMIN, or the bearer SCRIPTORIUM_METRICS_TOKEN (operations/metrics-guard).
  'GET /metrics': 'ROLE_ADMIN',

  'POST /auth/login': 'ROLE_ANONYMOUS',
  'POST /auth/logout': 'ROLE_USER',

  'GET /internal/metadata': 'ROLE_ADMIN',
  'POST /internal/metadata': 'ROLE_ADMIN',
  'PUT /internal/metadata': 'ROLE_ADMIN',
  'DELETE /internal/metadata': 'ROLE_ADMIN',

  // A curator reads the operators to start MAPPING jobs with them; only an ADMIN changes or tries them.
  'GET /operators': 'ROLE_CURATOR',
  'GET /operators/types': 'ROLE_CURATOR',
  'POST /operators': 'ROLE_ADMIN',
  'PUT /operators': 'ROLE_ADMIN',
  'DELETE /operators': 'ROLE_ADMIN',
  'POST /operators/apply': 'ROLE_ADMIN',

  'POST /schema': 'ROLE_ADMIN',
  'PUT /schema': 'ROLE_ADMIN',
  'DELETE /schema': 'ROLE_ADMIN',
  'GET /schema': 'ROLE_CURATOR',
  'GET /schema/:id': 'ROLE_CURATOR',
  'GET /schema/properties': 'ROLE_CURATOR',

  // Curation jobs (DECISIONS.md §9): ADMIN, or a curator of the job's view (checked in the service).
  'POST /curation-job': 'ROLE_CURATOR',
  'GET /curation-job': 'ROLE_CURATOR',
  'GET /curation-job/:id': 'ROLE_CURATOR',
  'GET /curation-job/:id/changes': 'ROLE_CURATOR',
  'GET /curation-job/:id/report': 'ROLE_CURATOR',
  // An EXPORT job's bag (DECISIONS.md §15): whoever may read the job.
  'GET /curation-job/:id/download': 'ROLE_CURATOR',
  'POST /curation-job/:id/apply': 'ROLE_CURATOR',
  'POST /curation-job/:id/undo': 'ROLE_CURATOR',
  'POST /curation-job/:id/cancel': 'ROLE_CURATOR',

  // Schedules (DECISIONS.md §15): the permission of the job they start (checked in the service).
  'GET /schedule': 'ROLE_CURATOR',
  'GET /schedule/:id': 'ROLE_CURATOR',
  'POST /schedule': 'ROLE_CURATOR',
  'PUT /schedule': 'ROLE_CURATOR',
  'DELETE /schedule': 'ROLE_CURATOR',

  'GET /user/credentials': 'ROLE_USER',
  'POST /user/password': 'ROLE_USER',
  'GET /user/all': 'ROLE_ADMIN',
  'POST /user/create': 'ROLE_ADMIN',
  // A USER may update their own names and e-mail; everything else needs ADMIN (checked in the service).
  'POST /user/update': 'ROLE_USER',
  'POST /user/delete': 'ROLE_ADMIN',
  'GET /user/delete': 'ROLE_ADMIN',

  // Notifications (DECISIONS.md §15): targets, their deliveries and test notices are an administrator's.
  'GET /notification-target': 'ROLE_ADMIN',
  'GET /notification-target/:id': 'ROLE_ADMIN',
  'POST /notification-target': 'ROLE_ADMIN',
  'PUT /notification-target': 'ROLE_ADMIN',
  'DELETE /notification-target': 'ROLE_ADMIN',
  'GET /notification-target/:id/deliveries': 'ROLE_ADMIN',
  'POST /notification-target/:id/test': 'ROLE_ADMIN',

  'POST /repository-view': 'ROLE_ADMIN',
  'DELETE /repository-view': 'ROLE_ADMIN',
  // Curators: only the views they curate (checked in the service).
  'GET /repository-view': 'ROLE_CURATOR',
  'PUT /repository-view': 'ROLE_CURATOR',
  'GET /repository-view/:id': 'ROLE_CURATOR',
  'GET /repository-view/types': 'ROLE_CURATOR',
  'POST /repository-view/:type/ping': 'ROLE_ADMIN',
  'POST /repository-view/:type/auth': 'ROLE_ADMIN',
  'POST /repository-view/:type/content': 'ROLE_ADMIN',
  'POST /repository-view/:type/verify/ping': 'ROLE_ADMIN',
  'POST /repository-view/:type/verify/auth': 'ROLE_ADMIN',
  'POST /repository-view/:type/verify/content': 'ROLE_ADMIN',

  // Every context endpoint: ADMIN or a curator of that view (checked in the service); free SPARQL is ADMIN.
  'GET /repository-view-context/:type/:repositoryViewId': 'ROLE_CURATOR',
  'DELETE /repository-view-context/:type/:repositoryViewId': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/triples': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/children': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/children': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/metadata': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/metadata': 'ROLE_CURATOR',
  'PUT /repository-view-context/:type/:repositoryViewId/metadata': 'ROLE_CURATOR',
  'DELETE /repository-view-context/:type/:repositoryViewId/metadata': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/query': 'ROLE_ADMIN',
  'GET /repository-view-context/:type/:repositoryViewId/query': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/resource': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/resource': 'ROLE_CURATOR',
  'DELETE /repository-view-context/:type/:repositoryViewId/resource': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/resource/fixity': 'ROLE_CURATOR',
  // Our addition: the binary's bytes, streamed (not an envelope).
  'GET /repository-view-context/:type/:repositoryViewId/resource/content': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/transaction': 'ROLE_CURATOR',
  'PUT /repository-view-context/:type/:repositoryViewId/transaction': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/transaction': 'ROLE_CURATOR',
  'DELETE /repository-view-context/:type/:repositoryViewId/transaction': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/version': 'ROLE_CURATOR',
  'PATCH /repository-view-context/:type/:repositoryViewId/version': 'ROLE_CURATOR',
  'DELETE /repository-view-context/:type/:repositoryViewId/version': 'ROLE_CURATOR',
  // Search (DECISIONS.md §12): as the context reads, ADMIN or a curator of that view (the service checks);
  // also the index's status and its rebuild.
  'GET /repository-view-context/:type/:repositoryViewId/search': 'ROLE_CURATOR',
  // Spreadsheet export (DECISIONS.md §13): ADMIN, or a curator of the view (checked when the view is opened).
  'GET /repository-view-context/:type/:repositoryViewId/export': 'ROLE_CURATOR',
  'GET /repository-view-context/:type/:repositoryViewId/search/status': 'ROLE_CURATOR',
  'POST /repository-view-context/:type/:repositoryViewId/search/reindex': 'ROLE_CURATOR',

  // "Revert this change" (DECISIONS.md §14): ADMIN, or a curator of the event's view (checked in the service).
  'POST /audit/:id/revert': 'ROLE_CURATOR',

  // Each event is delivered only to whom may read it (src/events/event-audience.ts). GET /events also
  // accepts a one-time ticket instead of the header (events.routes.ts: TicketAuthorizer), never a token.
  'GET /events': 'ROLE_USER',
  'POST /events/ticket': 'ROLE_USER',

  // The audit trail (DECISIONS.md §14): ADMIN, or a curator for the views they curate (the service checks).
  'GET /audit': 'ROLE_CURATOR',
  'GET /audit/verify': 'ROLE_ADMIN',
  // The ledger as PREMIS (DECISIONS.md §14): ADMIN, or a curator of the view asked for (premis-source.ts).
  'GET /audit/premis': 'ROLE_CURATOR',
};

/**
 * Routes outside the API's role model: documents (OpenAPI, the reference UI, the workbench) and the embedded
 * repository, which authenticates with HTTP Basic on its own.
 */
export function isOutsideRoleModel(url: string): boolean {
  return (
    url === '/' ||
    url === '/ui' ||
    url.startsWith('/ui/') ||
    url === '/openapi.json' ||
    url === '/docs' ||
    url.startsWith('/docs/') ||
    url === '/rest' ||
    url.startsWith('/rest/')
  );
}

export function permissionKey(method: string, url: string): string {
  return `${method} ${url}`;
}
