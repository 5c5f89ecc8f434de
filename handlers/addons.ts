import { desc, eq, inArray } from 'drizzle-orm';
import type { components } from '../generated/api.js';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { integrationConfig } from '../kernel/config.js';
import { badRequest, notFound } from '../kernel/errors.js';
import type { RecordEvent } from '../domain/events/event-log.js';
import { checkParameters, MASK } from '../domain/integrations/addon-parameters.js';
import { isSensitive, providerNamed, providers } from '../domain/integrations/providers.js';
import { toEvent } from '../domain/events/event-view.js';

type UpsertAddon = components['schemas']['UpsertAddon'];
type AddonRow = typeof t.addons.$inferSelect;

/** An integration as answered: sensitive parameters masked. */
function shown(row: AddonRow) {
  const parameters = Object.fromEntries(Object.entries(row.parameters).map(([name, value]) => [name, isSensitive(row.provider, name) ? MASK : value]));
  return { ...row, parameters, createdAt: row.createdAt.toISOString() };
}

/** What events say of an integration: never its parameters. */
const described = ({ parameters: _, ...rest }: AddonRow) => ({ ...rest, createdAt: rest.createdAt.toISOString() });

async function findAddon(db: Db, id: number) {
  const [row] = await db.select().from(t.addons).where(eq(t.addons.id, id));
  return row;
}

const noSuchAddon = (id: number) => notFound(`No integration with id ${id} exists.`);

/** Creates the provider's tag types that do not exist yet (Unleash does the same, as the service). */
async function createProviderTagTypes(tx: Db, record: RecordEvent, providerName: string) {
  const tagTypes = providerNamed(providerName)?.tagTypes ?? [];
  if (tagTypes.length === 0) return;
  const existing = await tx.select({ name: t.tagTypes.name }).from(t.tagTypes).where(inArray(t.tagTypes.name, tagTypes.map((tt) => tt.name)));
  for (const tagType of tagTypes.filter((tt) => !existing.some((e) => e.name === tt.name))) {
    const row = { name: tagType.name, description: tagType.description, icon: tagType.icon, color: null };
    await tx.insert(t.tagTypes).values(row);
    await record({ type: 'tag-type-created', data: row });
  }
}

async function create(body: UpsertAddon, context: Parameters<Handlers['createAddon']>[1]) {
  const provider = providerNamed(body.provider);
  if (!provider) throw badRequest(`provider: unknown integration provider "${body.provider}"; use one of ${providers.map((p) => p.name).join(', ')}.`);
  const parameters = await checkParameters(provider, body.parameters, {}, integrationConfig(context.config));
  const row = await context.change(async (tx, record) => {
    const [created] = await tx.insert(t.addons).values(columns(body, parameters)).returning();
    await record({ type: 'addon-config-created', data: described(created!) });
    await createProviderTagTypes(tx, record, provider.name);
    return created!;
  });
  return { status: 201 as const, body: shown(row), headers: { location: `/api/admin/addons/${row.id}` } };
}

function columns(body: UpsertAddon, parameters: Record<string, string>) {
  return {
    provider: body.provider,
    description: body.description ?? '',
    enabled: body.enabled,
    parameters,
    events: body.events,
    projects: body.projects ?? [],
    environments: body.environments ?? [],
  };
}

async function update(id: number, body: UpsertAddon, context: Parameters<Handlers['updateAddon']>[1]) {
  const before = await findAddon(context.db, id);
  if (!before) throw noSuchAddon(id);
  if (body.provider !== before.provider) {
    throw badRequest(`provider: an integration's provider cannot change (it is "${before.provider}"); create a new integration for "${body.provider}".`);
  }
  const provider = providerNamed(before.provider)!;
  const parameters = await checkParameters(provider, body.parameters, before.parameters, integrationConfig(context.config));
  const row = await context.change(async (tx, record) => {
    const [updated] = await tx.update(t.addons).set(columns(body, parameters)).where(eq(t.addons.id, id)).returning();
    if (!updated) throw noSuchAddon(id);
    // Disabled: what was waiting is not sent later. Still enabled (a URL fixed, say): what was waiting for a retry goes now.
    if (!updated.enabled) await tx.delete(t.integrationDeliveries).where(eq(t.integrationDeliveries.addonId, id));
    else await tx.update(t.integrationDeliveries).set({ nextAttemptAt: new Date() }).where(eq(t.integrationDeliveries.addonId, id));
    await record({ type: 'addon-config-updated', data: described(updated), preData: described(before) });
    return updated;
  });
  return { status: 200 as const, body: shown(row) };
}

/** The delivery log's default and largest page. */
const LOG_PAGE = 50;

export const addonHandlers = {
  async getAddons(_request, { db }) {
    const rows = await db.select().from(t.addons).orderBy(t.addons.id);
    return { status: 200, body: { addons: rows.map(shown), providers: [...providers] } };
  },

  async getAddon({ params }, { db }) {
    const row = await findAddon(db, params.id);
    if (!row) throw noSuchAddon(params.id);
    return { status: 200, body: shown(row) };
  },

  createAddon: ({ body }, context) => create(body, context),
  createAddonAdmin: ({ body }, context) => create(body, context),
  updateAddon: ({ params, body }, context) => update(params.id, body, context),
  updateAddonAdmin: ({ params, body }, context) => update(params.id, body, context),

  async deleteAddon({ params }, { change }) {
    await change(async (tx, record) => {
      const [deleted] = await tx.delete(t.addons).where(eq(t.addons.id, params.id)).returning();
      if (!deleted) throw noSuchAddon(params.id);
      await record({ type: 'addon-config-deleted', preData: described(deleted) });
    });
    return { status: 200, body: undefined };
  },

  async getAddonEvents({ params, query }, { db }) {
    if (!(await findAddon(db, params.id))) throw noSuchAddon(params.id);
    const rows = await db
      .select({ attempt: t.integrationEvents, event: t.events })
      .from(t.integrationEvents)
      .innerJoin(t.events, eq(t.events.id, t.integrationEvents.eventId))
      .where(eq(t.integrationEvents.addonId, params.id))
      .orderBy(desc(t.integrationEvents.id))
      .limit(query?.limit ?? LOG_PAGE)
      .offset(query?.offset ?? 0);
    const integrationEvents = rows.map(({ attempt, event }) => ({
      id: attempt.id,
      integrationId: attempt.addonId,
      state: attempt.state,
      stateDetails: attempt.stateDetails,
      event: toEvent(event),
      details: attempt.details,
      createdAt: attempt.createdAt.toISOString(),
    }));
    return { status: 200, body: { integrationEvents } };
  },
} satisfies Partial<Handlers>;
