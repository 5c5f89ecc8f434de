// The navigation's entries, in the groups the sidebar shows them in. Each entry is offered when the user may call
// the operation that lists what its page shows; a group none of whose entries is left is not shown.
import {
  IconAdjustments,
  IconApps,
  IconArchive,
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
import type { ComponentType } from 'react';
import type { OperationId } from '../../../../generated/operations.js';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  /** The operation that lists what the page shows; the link is offered when the user may call it. */
  needs: OperationId;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const navGroups: NavGroup[] = [
  {
    label: 'Flags & projects',
    items: [
      { to: '/flags', label: 'Flags', icon: IconFlag, needs: 'searchFeatures' },
      { to: '/projects', label: 'Projects', icon: IconFolders, needs: 'getProjects' },
      { to: '/archive', label: 'Archive', icon: IconArchive, needs: 'searchFeatures' },
    ],
  },
  {
    label: 'Configuration',
    items: [
      { to: '/environments', label: 'Environments', icon: IconServer, needs: 'getEnvironments' },
      { to: '/segments', label: 'Segments', icon: IconPuzzle, needs: 'getSegments' },
      { to: '/context-fields', label: 'Context fields', icon: IconAdjustments, needs: 'getContextFields' },
      { to: '/strategies', label: 'Strategies', icon: IconBuildingStore, needs: 'getStrategies' },
      { to: '/tag-types', label: 'Tag types', icon: IconTags, needs: 'getTagTypes' },
      { to: '/release-templates', label: 'Release templates', icon: IconRoute, needs: 'getReleasePlanTemplates' },
      { to: '/integrations', label: 'Integrations', icon: IconPlugConnected, needs: 'getAddons' },
    ],
  },
  {
    label: 'Access',
    items: [
      { to: '/users', label: 'Users', icon: IconUsers, needs: 'getUsers' },
      { to: '/groups', label: 'Groups', icon: IconUsersGroup, needs: 'getGroups' },
      { to: '/roles', label: 'Roles', icon: IconShieldLock, needs: 'getRoles' },
      { to: '/api-tokens', label: 'API tokens', icon: IconKey, needs: 'getApiTokens' },
      { to: '/settings', label: 'Settings', icon: IconSettings, needs: 'getOidcSettings' },
    ],
  },
  {
    label: 'Operations',
    items: [
      { to: '/applications', label: 'Applications', icon: IconApps, needs: 'getApplications' },
      { to: '/events', label: 'Event log', icon: IconHistory, needs: 'getEvents' },
      { to: '/change-requests', label: 'Change requests', icon: IconGitPullRequest, needs: 'getChangeRequests' },
      { to: '/playground', label: 'Playground', icon: IconPlayerPlay, needs: 'getPlayground' },
    ],
  },
];

/** The groups as the user sees them: only the entries they may use, and only the groups with an entry left. */
export const visibleGroups = (may: (operation: OperationId) => boolean): NavGroup[] =>
  navGroups.map((group) => ({ ...group, items: group.items.filter((item) => may(item.needs)) })).filter((group) => group.items.length > 0);

/** The navigation entry a page belongs to: a flag's page (`/projects/p/features/f`) to Flags. */
export const activeSection = (pathname: string) => (/^\/projects\/[^/]+\/features\//.test(pathname) ? '/flags' : `/${pathname.split('/')[1] ?? ''}`);
