// Existence checks shared by several handlers: each returns the row or throws 404 naming what is missing.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { notFound } from '../kernel/errors.js';

export async function requireProject(db: Db, id: string) {
  const [row] = await db.select().from(t.projects).where(eq(t.projects.id, id));
  if (!row) throw notFound(`No project with id "${id}" exists.`);
  return row;
}

export async function requireEnvironment(db: Db, name: string) {
  const [row] = await db.select().from(t.environments).where(eq(t.environments.name, name));
  if (!row) throw notFound(`No environment named "${name}" exists.`);
  return row;
}

/** The project's environment; 404 when the environment does not exist or is not used by the project. */
export async function requireProjectEnvironment(db: Db, project: string, environment: string) {
  const env = await requireEnvironment(db, environment);
  const [link] = await db
    .select()
    .from(t.projectEnvironments)
    .where(and(eq(t.projectEnvironments.project, project), eq(t.projectEnvironments.environment, environment)));
  if (!link) throw notFound(`The environment "${environment}" is not enabled for the project "${project}".`);
  return env;
}
