// A SAML 2.0 identity provider for tests, built with samlify (a library independent of the service's node-saml):
// it reads the service's AuthnRequest from the redirect URL and answers with the SAMLResponse its POST form
// would send, signed with a key and self-signed certificate made for the test. Besides good answers it makes
// the bad ones the service must refuse: unsigned, expired, for another audience, to no request of the service.
import { randomBytes } from 'node:crypto';
import { Constants, IdentityProvider, SamlLib, ServiceProvider, setSchemaValidator, type IdentityProviderInstance } from 'samlify';
import { selfSignedCertificate, type TestKeyPair } from './self-signed-certificate.js';

// samlify checks every document against the SAML schemas through a validator the caller supplies. This provider
// is not what is under test (the service's validation is), so it accepts what it is given.
setSchemaValidator({ validate: async () => 'skipped' });

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const MINUTE = 60_000;

export interface SamlTestUser {
  email: string;
  name?: string;
  groups?: string[];
  /** Attributes sent besides email, displayName and groups (or instead: `email: ''` sends no email attribute). */
  attributes?: Record<string, string | string[]>;
  /** The subject's NameID; the email by default. */
  nameID?: string;
}

export interface ResponseFaults {
  /** No signature at all, neither on the response nor on the assertion. */
  unsigned?: boolean;
  /** The response message signed, the assertion not. */
  assertionUnsigned?: boolean;
  /** Its validity (conditions and subject confirmation) ended ten minutes ago. */
  expired?: boolean;
  /** The audience named instead of the service's entity id. */
  audience?: string;
  /** InResponseTo instead of the request's id; null for an unsolicited response (no InResponseTo). */
  inResponseTo?: string | null;
}

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(attributes: Record<string, string | string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return '';
  const attribute = ([name, values]: [string, string | string[]]) =>
    `<saml:Attribute Name="${xmlText(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${[values]
      .flat()
      .map((value) => `<saml:AttributeValue xsi:type="xs:string">${xmlText(value)}</saml:AttributeValue>`)
      .join('')}</saml:Attribute>`;
  return `<saml:AttributeStatement>${entries.map(attribute).join('')}</saml:AttributeStatement>`;
}

const authnStatement = (instant: string, sessionIndex: string) =>
  `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;

const queryOf = (url: string) => ({ query: Object.fromEntries(new URL(url).searchParams) });

export interface TestIdentityProvider {
  entityId: string;
  /** Where the service sends browsers (never listened at: requests are read from the URL). */
  signOnUrl: string;
  signOutUrl: string;
  keys: TestKeyPair;
  /**
   * The SAMLResponse answering the AuthnRequest in `requestUrl` (the service's redirect), for `user`, to the
   * service whose SP metadata is `serviceMetadata`. The sessionIndex it names is answered alongside.
   */
  respond(serviceMetadata: string, requestUrl: string, user: SamlTestUser, faults?: ResponseFaults): Promise<{ samlResponse: string; sessionIndex: string }>;
  /** The LogoutRequest in a sign-out redirect the service sent, as this provider reads it. */
  readLogoutRequest(serviceMetadata: string, logoutUrl: string): Promise<{ nameID: unknown; sessionIndex: unknown; issuer: unknown }>;
}

/** An identity provider; pass the `keys` of another to sign with the same key under another entity id. */
export function testIdentityProvider(entityId = `https://idp-${randomBytes(4).toString('hex')}.test/metadata`, keys = selfSignedCertificate('Test identity provider')): TestIdentityProvider {
  const origin = new URL(entityId).origin;
  const idp: IdentityProviderInstance = IdentityProvider({
    entityID: entityId,
    privateKey: keys.privateKey,
    signingCert: keys.certificate,
    nameIDFormat: [EMAIL_FORMAT],
    wantAuthnRequestsSigned: false,
    singleSignOnService: [{ Binding: Constants.namespace.binding.redirect, Location: `${origin}/sso` }],
    singleLogoutService: [{ Binding: Constants.namespace.binding.redirect, Location: `${origin}/slo` }],
  });

  return {
    entityId,
    signOnUrl: `${origin}/sso`,
    signOutUrl: `${origin}/slo`,
    keys,

    async respond(serviceMetadata, requestUrl, user, faults = {}) {
      const metadata = faults.assertionUnsigned ? serviceMetadata.replace(/WantAssertionsSigned="true"/, 'WantAssertionsSigned="false"') : serviceMetadata;
      const sp = ServiceProvider({ metadata });
      const request = await idp.parseLoginRequest(sp, Constants.wording.binding.redirect, queryOf(requestUrl));
      const sessionIndex = `_session-${randomBytes(8).toString('hex')}`;
      const now = Date.now();
      const start = new Date(faults.expired ? now - 20 * MINUTE : now - MINUTE).toISOString();
      const end = new Date(faults.expired ? now - 10 * MINUTE : now + 5 * MINUTE).toISOString();
      const attributes = {
        ...(user.email && { email: user.email }),
        ...(user.name && { displayName: user.name }),
        ...(user.groups && { groups: user.groups }),
        ...user.attributes,
      };
      const acs = sp.entityMeta.getAssertionConsumerService(Constants.wording.binding.post) as string;
      const id = `_response-${randomBytes(8).toString('hex')}`;
      const built = await idp.createLoginResponse(sp, { extract: request.extract }, Constants.wording.binding.post, { email: user.email }, {
        customTagReplacement: (template) => ({
          id,
          context: SamlLib.replaceTagsByValue(
            template.replace('{AuthnStatement}', authnStatement(start, sessionIndex)).replace('{AttributeStatement}', attributeStatement(attributes)),
            {
              ID: id,
              AssertionID: `_assertion-${randomBytes(8).toString('hex')}`,
              Destination: acs,
              Audience: faults.audience ?? sp.entityMeta.getEntityID(),
              SubjectRecipient: acs,
              Issuer: entityId,
              IssueInstant: start,
              StatusCode: Constants.StatusCode.Success,
              ConditionsNotBefore: start,
              ConditionsNotOnOrAfter: end,
              SubjectConfirmationDataNotOnOrAfter: end,
              NameIDFormat: EMAIL_FORMAT,
              NameID: user.nameID ?? user.email,
              InResponseTo: faults.inResponseTo === undefined ? (request.extract.request as { id: string }).id : faults.inResponseTo,
            },
          ),
        }),
      });
      if (!faults.unsigned) return { samlResponse: built.context, sessionIndex };
      const xml = Buffer.from(built.context, 'base64').toString('utf8');
      const stripped = xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
      if (stripped === xml) throw new Error('the test identity provider found no signature to take off');
      return { samlResponse: Buffer.from(stripped).toString('base64'), sessionIndex };
    },

    async readLogoutRequest(serviceMetadata, logoutUrl) {
      const parsed = await idp.parseLogoutRequest(ServiceProvider({ metadata: serviceMetadata }), Constants.wording.binding.redirect, queryOf(logoutUrl));
      const { nameID, sessionIndex, issuer } = parsed.extract;
      return { nameID, sessionIndex, issuer };
    },
  };
}
