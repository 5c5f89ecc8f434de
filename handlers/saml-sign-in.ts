// PLACEHOLDER: written by the SAML helper.
import type { Handlers } from '../domain/handler-context.js';
import { notFound } from '../kernel/errors.js';

export const samlSignInHandlers = {
  async startSamlSignIn() {
    throw notFound('SAML sign-in is not written yet.');
  },
  async finishSamlSignIn() {
    return { status: 302, body: undefined, headers: { location: '/signin' } };
  },
  async getSamlMetadata() {
    return { status: 200, body: { preSerialized: Buffer.from('') }, headers: { 'content-type': 'application/samlmetadata+xml' } };
  },
} satisfies Partial<Handlers>;
