// The frame of every signed-in page: header, navigation (only to what the user may see) and the page.
import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAdjustments,
  IconArchive,
  IconApps,
  IconBuildingStore,
  IconFlag,
  IconFolders,
  IconGitPullRequest,
  IconHistory,
  IconKey,
  IconPlayerPlay,
  IconPlugConnected,
  IconPuzzle,
  IconRoute,
  IconServer,
  IconSettings,
  IconShieldLock,
  IconTags,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Suspense, type ComponentType } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import type { OperationId } from '../../../generated/operations.js';
import { SessionProvider, useSession, useSessionQuery, useSignOut, type Session } from '../session';
import { PageLoader, QueryError } from './feedback';

interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /** The operation that lists what the page shows; the link is offered when the user may call it. */
  needs: OperationId;
}

const navItems: NavItem[] = [
  { to: '/flags', label: 'Flags', icon: IconFlag, needs: 'searchFeatures' },
  { to: '/archive', label: 'Archive', icon: IconArchive, needs: 'searchFeatures' },
  { to: '/projects', label: 'Projects', icon: IconFolders, needs: 'getProjects' },
  { to: '/environments', label: 'Environments', icon: IconServer, needs: 'getEnvironments' },
  { to: '/segments', label: 'Segments', icon: IconPuzzle, needs: 'getSegments' },
  { to: '/release-templates', label: 'Release templates', icon: IconRoute, needs: 'getReleasePlanTemplates' },
  { to: '/context-fields', label: 'Context fields', icon: IconAdjustments, needs: 'getContextFields' },
  { to: '/strategies', label: 'Strategies', icon: IconBuildingStore, needs: 'getStrategies' },
  { to: '/tag-types', label: 'Tag types', icon: IconTags, needs: 'getTagTypes' },
  { to: '/api-tokens', label: 'API tokens', icon: IconKey, needs: 'getApiTokens' },
  { to: '/applications', label: 'Applications', icon: IconApps, needs: 'getApplications' },
  { to: '/users', label: 'Users', icon: IconUsers, needs: 'getUsers' },
  { to: '/roles', label: 'Roles', icon: IconShieldLock, needs: 'getRoles' },
  { to: '/groups', label: 'Groups', icon: IconUsersGroup, needs: 'getGroups' },
  { to: '/events', label: 'Event log', icon: IconHistory, needs: 'getEvents' },
  { to: '/integrations', label: 'Integrations', icon: IconPlugConnected, needs: 'getAddons' },
  { to: '/change-requests', label: 'Change requests', icon: IconGitPullRequest, needs: 'getChangeRequests' },
  { to: '/playground', label: 'Playground', icon: IconPlayerPlay, needs: 'getPlayground' },
  { to: '/settings', label: 'Settings', icon: IconSettings, needs: 'getOidcSettings' },
];

/** The navigation entry a page belongs to: a flag's page (`/projects/p/features/f`) to Flags. */
const activeSection = (pathname: string) => (/^\/projects\/[^/]+\/features\//.test(pathname) ? '/flags' : `/${pathname.split('/')[1] ?? ''}`);

/** Signed-in pages: the sign-in page for whoever is not (and back here afterwards). */
export function RequireSession() {
  const session = useSessionQuery();
  const location = useLocation();
  if (session.isPending) return <PageLoader />;
  if (session.isError) return <QueryError error={session.error} />;
  if (!session.data) return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <SessionProvider session={session.data}>
      <Layout />
    </SessionProvider>
  );
}

function userLabel(session: Session) {
  const user = session.user;
  return user ? (user.name ?? user.username ?? user.email ?? `User ${user.id}`) : 'No authentication';
}

function Layout() {
  const session = useSession();
  const signOut = useSignOut();
  const [opened, { toggle, close }] = useDisclosure();
  const navigation = useNavigation();
  const location = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'md', collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Navigation" />
            <IconFlag size={24} aria-hidden />
            <Text fw={700}>Feature flags</Text>
          </Group>
          <Group gap="sm">
            <Text size="sm" data-testid="signed-in-as">
              {session.user ? <RouterLink to="/profile">{userLabel(session)}</RouterLink> : userLabel(session)}
            </Text>
            {session.user && (
              <Button variant="default" size="xs" onClick={signOut}>
                Sign out
              </Button>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea>
          {navItems
            .filter((item) => session.canSomewhere(item.needs))
            .map((item) => (
              <NavLink
                key={item.to}
                component={RouterLink}
                to={item.to}
                label={item.label}
                active={activeSection(location.pathname) === item.to}
                aria-current={activeSection(location.pathname) === item.to ? 'page' : undefined}
                leftSection={<item.icon size={18} stroke={1.6} />}
                onClick={close}
              />
            ))}
        </ScrollArea>
      </AppShell.Navbar>
      {/* A table wider than a narrow window scrolls on its own; the header and the menu stay where they are. */}
      <AppShell.Main aria-busy={navigation.state === 'loading'} style={{ overflowX: 'auto' }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
