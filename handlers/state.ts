import { stringify as toYaml } from 'yaml';
import type { Handlers } from '../domain/handler-context.js';
import { badRequest } from '../kernel/errors.js';
import { requireEnvironment } from '../domain/lookups.js';
import { exportV1, exportV2 } from '../domain/state/export.js';
import { checkedDocument, documentOf, importState } from '../domain/state/import.js';

/** The environment version 1 documents are about when the query names none, as decisions.md rules. */
const DEFAULT_ENVIRONMENT = 'development';

/** A query yes/no: `true`/`1` or `false`/`0`; absent gives the default. */
const yes = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === 'true' || value === '1');

/** `export-2026-11-24_23-05-09.json`, in UTC. */
const fileName = (now: Date, extension: string) => `export-${now.toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-')}.${extension}`;

export const stateHandlers = {
  async exportState({ query }, { db }) {
    const environment = query?.environment ?? DEFAULT_ENVIRONMENT;
    const version = query?.version ?? 1;
    if (version === 1) await requireEnvironment(db, environment);
    const document =
      version === 2
        ? await exportV2(db)
        : await exportV1(db, { environment, featureToggles: yes(query?.featureToggles, true), strategies: yes(query?.strategies, true) });
    const yaml = query?.format === 'yaml';
    const headers: Record<string, string> = { 'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8' };
    if (yes(query?.download, false)) headers['content-disposition'] = `attachment; filename="${fileName(new Date(), yaml ? 'yml' : 'json')}"`;
    const text = yaml ? toYaml(document, { aliasDuplicateObjects: false }) : JSON.stringify(document);
    return { status: 200, body: { preSerialized: Buffer.from(text) }, headers };
  },

  async importState({ query, body, headers }, { db, caller, change }) {
    const environment = query?.environment ?? DEFAULT_ENVIRONMENT;
    const { document, label } = documentOf(body, /^multipart\/form-data\b/i.test(String(headers['content-type'] ?? '')));
    const checked = checkedDocument(document, label, environment);
    if (checked.flags.length > 0 && (document as { version?: unknown }).version !== 2) {
      await requireEnvironment(db, environment).catch(() => {
        throw badRequest(`environment: no environment named "${environment}" exists.`);
      });
    }
    const options = { drop: yes(query?.drop, false), keep: yes(query?.keep, true), environment };
    await change((tx, record) => importState(tx, record, checked, label, options, { name: caller.name, userId: caller.userId }));
    return { status: 202, body: undefined };
  },
} satisfies Partial<Handlers>;
