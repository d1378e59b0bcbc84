import { AppShell, Burger, Button, Group, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useSyncExternalStore } from 'react';
import { isAdmin, onSessionChange, readSession } from '../api/session';
import { sessionExpired } from '../app/query-client';
import { useLiveEvents } from '../app/live-events';
import { NavLinkRouted } from './links';
import { useSignOut } from '../features/auth/api';

const subscribe = (listener: () => void) => onSessionChange(listener);
const snapshot = () => readSession()?.token ?? null;

/** The shell: header with the user and Sign out, the main navigation, the screen. */
export function AppLayout() {
  const token = useSyncExternalStore(subscribe, snapshot);
  const session = readSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [opened, { toggle, close }] = useDisclosure(false);
  const path = useRouterState({ select: (state) => state.location.pathname });
  useLiveEvents(token !== null);

  useEffect(() => {
    if (token === null) {
      queryClient.clear();
      void navigate({ to: '/sign-in', search: sessionExpired ? { expired: true } : {} });
    }
  }, [token, navigate, queryClient]);
  useEffect(close, [path, close]);

  if (session === null) return null;
  const admin = isAdmin(session);
  const curator = admin || session.role === 'ROLE_CURATOR';
  const links = [
    { to: '/views', label: 'Repository views', show: true },
    { to: '/jobs', label: 'Curation jobs', show: curator },
    { to: '/schedules', label: 'Schedules', show: curator },
    { to: '/schemas', label: 'Schemas', show: curator },
    { to: '/internal-metadata', label: 'Internal metadata', show: admin },
    { to: '/operators', label: 'Operators', show: admin },
    { to: '/users', label: 'Users', show: admin },
    { to: '/notifications', label: 'Notifications', show: admin },
    { to: '/activity', label: 'Activity', show: admin },
    { to: '/service-status', label: 'Service status', show: admin },
  ] as const;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Title order={2} size="h4">
              Scriptorium
            </Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Text size="sm" visibleFrom="xs">
              {session.username}
            </Text>
            <Button
              variant="default"
              size="xs"
              loading={signOut.isPending}
              onClick={() => {
                signOut.mutate();
              }}
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {links
          .filter((link) => link.show)
          .map((link) => (
            <NavLinkRouted
              key={link.to}
              to={link.to}
              label={link.label}
              active={path.startsWith(`/ui${link.to}`) || path.startsWith(link.to)}
            />
          ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
