import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { ErrorScreen, PendingScreen } from '../components/query-states';
import { routeTree } from '../route-tree.gen';

export interface RouterContext {
  readonly queryClient: QueryClient;
}

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/ui',
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // A screen's failure or wait stays inside the app shell (navigation and Sign out remain).
    defaultErrorComponent: ErrorScreen,
    defaultPendingComponent: PendingScreen,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
