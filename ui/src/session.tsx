// Who is signed in, and what they may do. The current user is one query (`me`); a 401 anywhere empties it,
// which sends the app back to the sign-in page.
import { createContext, useContext, type ReactNode } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../generated/api.js';
import type { OperationId } from '../../generated/operations.js';
import type { Caller, PermissionScope } from '../../shared/caller.js';
import { api, ApiError, ok } from './api';
import { callerOfCurrentUser, can, canSomewhere, unauthenticatedAdmin } from './lib/permissions.js';

type User = components['schemas']['User'];

export interface Session {
  /** Undefined when the service runs without authentication (AUTH_TYPE=none). */
  user: User | undefined;
  caller: Caller;
  can(operation: OperationId, scope?: PermissionScope): boolean;
  canSomewhere(operation: OperationId): boolean;
}

/** The signed-in session; null when nobody is signed in. */
export async function loadSession(): Promise<Session | null> {
  try {
    const me = await ok(api.GET('/api/admin/user'));
    return sessionOf(me.user, callerOfCurrentUser(me));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    // Without authentication the caller is no user, and the service says so with 400: everyone is an admin.
    if (error instanceof ApiError && error.status === 400) return sessionOf(undefined, unauthenticatedAdmin);
    throw error;
  }
}

const sessionOf = (user: User | undefined, caller: Caller): Session => ({
  user,
  caller,
  can: (operation, scope) => can(caller, operation, scope),
  canSomewhere: (operation) => canSomewhere(caller, operation),
});

export const SESSION_KEY = ['session'] as const;

/** The session's one query: main.tsx starts it as the app loads, before any page is rendered. */
export const sessionQuery = queryOptions({ queryKey: SESSION_KEY, queryFn: loadSession, staleTime: 5 * 60_000, retry: false });

export function useSessionQuery() {
  return useQuery(sessionQuery);
}

/**
 * A session that may do nothing, under which a page renders (hidden) while the real one is read: its data requests
 * start alongside the session's, and it offers no control the user may not have. The page is mounted afresh, and
 * shown, under the real session.
 */
export const provisionalSession: Session = sessionOf(undefined, {
  name: 'provisional',
  userId: null,
  tokenKind: null,
  projects: [],
  environment: '*',
  grants: [],
});

/** Signs in with a password (the session cookie), then holds the new session and nothing read before it. */
export async function signIn(queryClient: QueryClient, username: string, password: string): Promise<void> {
  await ok(api.POST('/auth/simple/login', { body: { username, password } }));
  const signedIn = await loadSession();
  queryClient.clear();
  queryClient.setQueryData(SESSION_KEY, signedIn);
}

/** After a 401 or a sign-out: forget every answer, and that anyone was signed in. */
export function endSession(queryClient: QueryClient) {
  // The session query stays (its observers see it turn null and leave for the sign-in page); the rest goes.
  queryClient.setQueryData(SESSION_KEY, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Whether the signed-in user may call the operation in the scope. */
export function useCan(operation: OperationId, scope?: PermissionScope): boolean {
  return useSession().can(operation, scope);
}

/**
 * Signs out by leaving for GET /logout, which ends the session and goes on to the sign-in page or the identity
 * provider's sign-out: a full navigation, so nothing read while signed in stays in memory.
 */
export function useSignOut() {
  return () => {
    // A page the browser kept whole (the back button's cache) is loaded afresh instead of showing the old answers.
    window.addEventListener('pageshow', (event) => event.persisted && window.location.reload());
    window.location.assign('/logout');
  };
}
