// Who a SAML assertion says signed in, read from the attributes identity providers commonly send.
import type { Profile } from '@node-saml/node-saml';
import type { SsoIdentity } from './sign-in.js';

const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];
const GIVEN_NAME_ATTRIBUTES = ['givenName', 'firstName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
const SURNAME_ATTRIBUTES = ['surname', 'sn', 'lastName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];

/** An attribute's first text value: attributes sent several times arrive as arrays. */
function text(profile: Profile, name: string): string | undefined {
  const value = profile[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : undefined;
}

const firstOf = (profile: Profile, names: string[]) => names.map((name) => text(profile, name)).find((value) => value !== undefined);

function fullName(profile: Profile): string | undefined {
  const named = firstOf(profile, NAME_ATTRIBUTES);
  if (named) return named;
  const parts = [firstOf(profile, GIVEN_NAME_ATTRIBUTES), firstOf(profile, SURNAME_ATTRIBUTES)].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

/** The groups attribute as a list; undefined when the assertion does not carry it (group memberships are then left alone). */
function groups(profile: Profile, attribute: string): string[] | undefined {
  const value = profile[attribute];
  if (value === undefined || value === null) return undefined;
  return (Array.isArray(value) ? value : [value]).filter((group): group is string => typeof group === 'string');
}

export function identityOfProfile(profile: Profile, groupAttribute = 'groups'): SsoIdentity {
  const nameIdIsEmail = typeof profile.nameID === 'string' && profile.nameID.includes('@');
  return {
    email: firstOf(profile, EMAIL_ATTRIBUTES) ?? (nameIdIsEmail ? profile.nameID : undefined),
    name: fullName(profile),
    groups: groups(profile, groupAttribute),
  };
}
