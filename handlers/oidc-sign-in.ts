// PLACEHOLDER: written by the OpenID Connect helper.
import type { Handlers } from '../domain/handler-context.js';
import { notFound } from '../kernel/errors.js';

export const oidcSignInHandlers = {
  async startOidcSignIn() {
    throw notFound('OpenID Connect sign-in is not written yet.');
  },
  async finishOidcSignIn() {
    return { status: 302, body: undefined, headers: { location: '/signin' } };
  },
} satisfies Partial<Handlers>;
