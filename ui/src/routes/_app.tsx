import { createFileRoute, redirect } from '@tanstack/react-router';
import { readSession } from '../api/session';
import { AppLayout } from '../components/app-layout';

/** Every screen but sign-in: needs a session, shows the navigation. */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ location }) => {
    if (readSession() === null) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
  },
  component: AppLayout,
});
