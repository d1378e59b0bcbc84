import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { clearSessionExpired } from '../app/query-client';
import { SignInForm } from '../features/auth/components/sign-in-form';

const search = z.object({
  expired: z.boolean().optional(),
  /** Where to go back to once signed in: a path inside the workbench only. */
  redirect: z.string().startsWith('/').optional(),
});

export const Route = createFileRoute('/sign-in')({
  validateSearch: search,
  component: SignInPage,
});

function SignInPage() {
  const { expired = false, redirect } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <SignInForm
      expired={expired}
      onSignedIn={() => {
        clearSessionExpired();
        // Only same-app paths: an absolute URL or "//host" in `redirect` is ignored.
        const target =
          redirect !== undefined && !redirect.startsWith('//') ? redirect.replace(/^\/ui/, '') : '/views';
        void navigate({ to: target === '' ? '/views' : target });
      }}
    />
  );
}
