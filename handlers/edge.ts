import { and, inArray } from 'drizzle-orm';
import * as t from '../db/schema.js';
import type { Handlers } from '../domain/handler-context.js';
import { ALL, hashSecret } from '../domain/access/tokens.js';
import { bulkImpactReports, bulkRegistrations, bulkReports } from '../domain/usage/bulk-metrics.js';

/** The kinds of token an edge may serve SDKs with: never admin tokens (personal access tokens are not API tokens at all). */
const SERVABLE = ['client', 'frontend'] as const;
type Servable = (typeof SERVABLE)[number];
const servable = <T extends { type: string }>(row: T): row is T & { type: Servable } => (SERVABLE as readonly string[]).includes(row.type);

export const edgeHandlers = {
  async validateEdgeTokens({ body }, { db }) {
    const sent = [...new Set(body.tokens)].map((secret) => ({ secret, hash: hashSecret(secret) }));
    if (sent.length === 0) return { status: 200, body: { tokens: [] } };
    const rows = await db
      .select({ secretHash: t.apiTokens.secretHash, type: t.apiTokens.type, projects: t.apiTokens.projects, environment: t.apiTokens.environment, expiresAt: t.apiTokens.expiresAt })
      .from(t.apiTokens)
      .where(and(inArray(t.apiTokens.secretHash, sent.map((s) => s.hash)), inArray(t.apiTokens.type, [...SERVABLE])));
    const now = Date.now();
    const valid = new Map(rows.filter(servable).filter((row) => !row.expiresAt || row.expiresAt.getTime() > now).map((row) => [row.secretHash, row]));
    const tokens = sent.flatMap(({ secret, hash }) => {
      const row = valid.get(hash);
      return row ? [{ token: secret, type: row.type, projects: row.projects, environment: row.environment }] : [];
    });
    return { status: 200, body: { tokens } };
  },

  async reportBulkClientMetrics({ body }, { caller, clientMetrics, clientIp }) {
    const readable = (environment: string) => caller.environment === ALL || caller.environment === environment;
    for (const { environment, registration } of bulkRegistrations(body.applications, readable)) clientMetrics.register(registration, environment, clientIp);
    for (const { environment, report } of bulkReports(body, readable)) clientMetrics.report(report, environment, clientIp);
    const fallback = caller.environment === ALL ? undefined : caller.environment;
    for (const { environment, report } of bulkImpactReports(body, readable, fallback)) clientMetrics.report(report, environment, clientIp, 'edge');
    return { status: 202, body: undefined };
  },
} satisfies Partial<Handlers>;
