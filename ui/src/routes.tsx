// Pages, each its own chunk: the first load fetches the shell and the page it opens, nothing else.
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { RequireSession } from './components/layout';
import { PageLoader, RouteError } from './components/feedback';

const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const router = createBrowserRouter([
  { path: '/signin', lazy: page(() => import('./pages/sign-in')), ErrorBoundary: RouteError, HydrateFallback: PageLoader },
  { path: '/new-user', lazy: page(() => import('./pages/new-user')), ErrorBoundary: RouteError, HydrateFallback: PageLoader },
  {
    path: '/',
    Component: RequireSession,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoader,
    children: [
      { index: true, element: <Navigate to="/flags" replace /> },
      { path: 'flags', lazy: page(() => import('./pages/flags')) },
      { path: 'archive', lazy: page(() => import('./pages/archive')) },
      { path: 'projects/:projectId/features/:featureName', lazy: page(() => import('./pages/flag')) },
      { path: 'api-tokens', lazy: page(() => import('./pages/api-tokens')) },
      { path: 'applications', lazy: page(() => import('./pages/applications')) },
      { path: 'applications/:appName', lazy: page(() => import('./pages/application')) },
      { path: 'projects', lazy: page(() => import('./pages/projects')) },
      { path: 'projects/:projectId', lazy: page(() => import('./pages/project')) },
      { path: 'projects/:projectId/members', lazy: page(() => import('./pages/project-members')) },
      { path: 'environments', lazy: page(() => import('./pages/environments')) },
      { path: 'segments', lazy: page(() => import('./pages/segments')) },
      { path: 'release-templates', lazy: page(() => import('./pages/release-templates')) },
      { path: 'context-fields', lazy: page(() => import('./pages/context-fields')) },
      { path: 'strategies', lazy: page(() => import('./pages/strategies')) },
      { path: 'tag-types', lazy: page(() => import('./pages/tag-types')) },
      { path: 'users', lazy: page(() => import('./pages/users')) },
      { path: 'roles', lazy: page(() => import('./pages/roles')) },
      { path: 'groups', lazy: page(() => import('./pages/groups')) },
      { path: 'events', lazy: page(() => import('./pages/events')) },
      { path: 'integrations', lazy: page(() => import('./pages/integrations')) },
      { path: 'change-requests', lazy: page(() => import('./pages/change-requests')) },
      { path: 'playground', lazy: page(() => import('./pages/playground')) },
      { path: 'settings', lazy: page(() => import('./pages/settings')) },
      { path: 'profile', lazy: page(() => import('./pages/profile')) },
      { path: '*', lazy: page(() => import('./pages/not-found')) },
    ],
  },
]);
