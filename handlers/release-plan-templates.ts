import { and, asc, eq, ne } from 'drizzle-orm';
import { ulid } from 'ulid';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { nameExists } from '../kernel/errors.js';
import { systemCaller } from '../shared/caller.js';
import { templateScope, writeMilestones } from '../domain/release-plans/templates.js';
import { describeTemplates, readTemplate } from '../domain/release-plans/view.js';

const d = t.releasePlanDefinitions;

async function requireFreeName(tx: Db, name: string, exceptId = '') {
  const [taken] = await tx.select({ id: d.id }).from(d).where(and(eq(d.discriminator, 'template'), eq(d.name, name), ne(d.id, exceptId)));
  if (taken) throw nameExists(`A release template named "${name}" already exists; choose another name.`);
}

export const releasePlanTemplateHandlers = {
  async getReleasePlanTemplates(_request, { db }) {
    const rows = await db.select().from(d).where(eq(d.discriminator, 'template')).orderBy(asc(d.name));
    return { status: 200, body: await describeTemplates(db, rows) };
  },

  async getReleasePlanTemplate({ params }, { db }) {
    return { status: 200, body: await readTemplate(db, params.templateId) };
  },

  async createReleasePlanTemplate({ body }, { change, caller }) {
    const template = await change(async (tx, record) => {
      await requireFreeName(tx, body.name);
      const id = ulid();
      await tx.insert(d).values({ id, discriminator: 'template', name: body.name, description: body.description ?? null, createdByUserId: caller.userId ?? systemCaller.userId! });
      await writeMilestones(tx, id, body.milestones, templateScope);
      const created = await readTemplate(tx, id);
      await record({ type: 'release-plan-template-created', data: created });
      return created;
    });
    return { status: 201, body: template, headers: { location: `/api/admin/release-plan-templates/${template.id}` } };
  },

  async updateReleasePlanTemplate({ params, body }, { change }) {
    const template = await change(async (tx, record) => {
      const before = await readTemplate(tx, params.templateId);
      await requireFreeName(tx, body.name, before.id);
      await tx.update(d).set({ name: body.name, description: body.description ?? null }).where(eq(d.id, before.id));
      await tx.delete(t.releasePlanMilestones).where(eq(t.releasePlanMilestones.definitionId, before.id));
      await writeMilestones(tx, before.id, body.milestones, templateScope, before.milestones);
      const after = await readTemplate(tx, before.id);
      await record({ type: 'release-plan-template-updated', data: after, preData: before });
      return after;
    });
    return { status: 200, body: template };
  },

  async deleteReleasePlanTemplate({ params }, { change }) {
    await change(async (tx, record) => {
      const before = await readTemplate(tx, params.templateId);
      await tx.delete(d).where(eq(d.id, before.id));
      await record({ type: 'release-plan-template-deleted', preData: before });
    });
    return { status: 204, body: undefined };
  },
} satisfies Partial<Handlers>;
