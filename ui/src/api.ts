// Every call the UI makes goes through the project's typed client (client/index.ts over generated/api.ts): paths,
// parameters and bodies are checked against the contract by tsc. The session cookie rides along (same origin).
import { createClient } from '../../client/index.js';

export const api = createClient(window.location.origin, { credentials: 'same-origin' });

/** An answer that was not a success: its status and the service's message (`{id, name, message}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: string | undefined,
  ) {
    super(message);
  }
}

let onSessionEnded: () => void = () => {};

/** What to do when the service answers 401 (the session expired, was logged out, or the user deleted). */
export function whenSessionEnds(callback: () => void) {
  onSessionEnded = callback;
}

api.use({
  onResponse({ request, response }) {
    // The sign-in answers 401 to a wrong password, and the session's own query reads its 401 itself.
    const path = new URL(request.url).pathname;
    if (response.status === 401 && path !== '/auth/simple/login' && path !== '/api/admin/user') onSessionEnded();
    return undefined;
  },
});

type Answer = { data?: unknown; error?: unknown; response: Response };

/** The answer's body when it succeeded; an ApiError with the service's message when it did not. */
export async function ok<A extends Answer>(call: Promise<A>): Promise<Exclude<A['data'], undefined>> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = (error ?? {}) as { message?: unknown; name?: unknown };
    const message = typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, typeof body.name === 'string' ? body.name : undefined);
  }
  return data as Exclude<A['data'], undefined>;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
