import type { Handlers } from '../domain/handler-context.js';
import * as t from '../db/schema.js';

/** The order Unleash lists the built-in types in; other types follow by name. */
const builtInOrder = ['release', 'experiment', 'operational', 'kill-switch', 'permission'];
const rank = (id: string) => {
  const i = builtInOrder.indexOf(id);
  return i === -1 ? builtInOrder.length : i;
};

export const featureTypeHandlers = {
  async getFeatureTypes(_request, { db }) {
    const rows = await db.select().from(t.featureTypes);
    rows.sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
    return { status: 200, body: { version: 1, types: rows } };
  },
} satisfies Partial<Handlers>;
