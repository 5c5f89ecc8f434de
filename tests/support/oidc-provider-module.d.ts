// The part of oidc-provider 8's API that tests/support/oidc-provider.ts uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = Record<string, any> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown> & { sub: string }>;
  }

  export interface Configuration {
    adapter?: new (model: string) => Adapter;
    jwks?: { keys: object[] };
    cookies?: { keys?: string[] };
    conformIdTokenClaims?: boolean;
    claims?: Record<string, string[]>;
    scopes?: string[];
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    ttl?: Record<string, number>;
    enabledJWA?: { idTokenSigningAlgValues?: string[] };
    features?: Record<string, { enabled: boolean }>;
    findAccount?(ctx: unknown, sub: string, token?: unknown): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
