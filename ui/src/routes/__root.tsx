import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '../app/router';
import { ErrorScreen, PendingScreen } from '../components/query-states';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  pendingComponent: PendingScreen,
  errorComponent: ErrorScreen,
  notFoundComponent: () => <p>This page does not exist.</p>,
});
