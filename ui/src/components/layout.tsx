// The frame of every signed-in page: header (the product, the flag search, who is signed in), the navigation in
// groups (only to what the user may see) and the page.
import { ActionIcon, Anchor, AppShell, Box, Burger, Button, Group, Kbd, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { IconFlag, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { provisionalSession, SessionProvider, useSession, useSessionQuery, useSignOut, type Session } from '../session';
import { PageLoader, QueryError } from './feedback';
import { activeSection, visibleGroups, type NavGroup } from './navigation/nav-groups';
import { PRODUCT_NAME } from './page';

/** The flag search's dialog, loaded the first time it is asked for (the first load of a page stays light). */
const loadQuickSearch = () => import('./navigation/quick-search');
const QuickSearch = lazy(loadQuickSearch);

/** Signed-in pages: the sign-in page for whoever is not (and back here afterwards). */
export function RequireSession() {
  const session = useSessionQuery();
  const location = useLocation();
  if (session.isPending) return <WhileSessionLoads />;
  if (session.isError) return <QueryError error={session.error} />;
  if (!session.data) return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <SessionProvider session={session.data}>
      <Layout />
    </SessionProvider>
  );
}

/**
 * While the session is being read: a loader, and out of sight the page under a session that may do nothing, so that
 * the page's data requests start together with the session's instead of after its answer. Nobody sees that render;
 * under the real session the page is mounted afresh (its data already on its way) with the controls the user may use.
 */
function WhileSessionLoads() {
  return (
    <>
      <PageLoader />
      <div hidden>
        <SessionProvider session={provisionalSession}>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </SessionProvider>
      </div>
    </>
  );
}

function userLabel(session: Session) {
  const user = session.user;
  return user ? (user.name ?? user.username ?? user.email ?? `User ${user.id}`) : 'No authentication';
}

const onMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

function Layout() {
  const session = useSession();
  const signOut = useSignOut();
  const [opened, { toggle, close }] = useDisclosure();
  const navigation = useNavigation();
  const location = useLocation();
  const [search, setSearch] = useState<'never' | 'open' | 'closed'>('never');
  const searchable = session.canSomewhere('searchFeatures');
  const openSearch = () => searchable && setSearch('open');
  // Ctrl+K (⌘K on a Mac), also while typing in a field.
  useHotkeys([['mod+K', openSearch]], [], true);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'md', collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Navigation" />
            <Anchor component={RouterLink} to="/flags" c="inherit" underline="never" aria-label={PRODUCT_NAME}>
              <Group gap={8} wrap="nowrap">
                <IconFlag size={24} aria-hidden />
                <Text fw={700} component="span" visibleFrom="xs">
                  {PRODUCT_NAME}
                </Text>
              </Group>
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {searchable && (
              <>
                <Button
                  variant="default"
                  size="xs"
                  visibleFrom="sm"
                  leftSection={<IconSearch size={14} aria-hidden />}
                  rightSection={
                    <Kbd size="xs" aria-hidden>
                      {onMac ? '⌘ K' : 'Ctrl K'}
                    </Kbd>
                  }
                  aria-keyshortcuts={onMac ? 'Meta+K' : 'Control+K'}
                  onPointerEnter={() => void loadQuickSearch()}
                  onFocus={() => void loadQuickSearch()}
                  onClick={openSearch}
                >
                  Search flags
                </Button>
                <ActionIcon variant="default" hiddenFrom="sm" aria-label="Search flags" aria-keyshortcuts={onMac ? 'Meta+K' : 'Control+K'} onClick={openSearch}>
                  <IconSearch size={16} aria-hidden />
                </ActionIcon>
              </>
            )}
            <Text size="sm" data-testid="signed-in-as" truncate maw={{ base: 110, sm: 240 }}>
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
        <AppShell.Section grow component={ScrollArea}>
          {visibleGroups((operation) => session.canSomewhere(operation)).map((group) => (
            <NavSection key={group.label} group={group} active={activeSection(location.pathname)} onNavigate={close} />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      {/* A table wider than a narrow window scrolls on its own; the header and the menu stay where they are. */}
      <AppShell.Main aria-busy={navigation.state === 'loading'} style={{ overflowX: 'auto' }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      {search !== 'never' && (
        <Suspense fallback={null}>
          <QuickSearch opened={search === 'open'} onClose={() => setSearch('closed')} />
        </Suspense>
      )}
    </AppShell>
  );
}

/** One group of the navigation: its label, and the list of its entries named by it. */
function NavSection({ group, active, onNavigate }: { group: NavGroup; active: string; onNavigate: () => void }) {
  const id = useId();
  return (
    <Box mb="sm">
      <Text id={id} size="xs" fw={700} tt="uppercase" c="gray.7" px="sm" pt={4} pb={2} style={{ letterSpacing: '0.04em' }}>
        {group.label}
      </Text>
      <Box component="ul" aria-labelledby={id} m={0} p={0} style={{ listStyle: 'none' }}>
        {group.items.map((item) => (
          <li key={item.to}>
            <NavLink
              component={RouterLink}
              to={item.to}
              label={item.label}
              py={6}
              active={active === item.to}
              aria-current={active === item.to ? 'page' : undefined}
              leftSection={<item.icon size={18} stroke={1.6} />}
              onClick={onNavigate}
            />
          </li>
        ))}
      </Box>
    </Box>
  );
}
