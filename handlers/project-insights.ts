// Project insights: flag and activity statistics, health, lead time to production, flag types and members.
import { and, asc, count, eq, gt, gte, isNull, lte, min, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Handlers } from '../domain/handler-context.js';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import { requireProject } from '../domain/lookups.js';
import { isPotentiallyStale } from '../domain/flags/search-filters.js';

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;

interface Window {
  from: Date;
  to: Date;
}

/** The current window (now-30d, now] and the past window (now-60d, now-30d]. */
function windowsAt(now: Date): { current: Window; past: Window } {
  const start = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
  return { current: { from: start, to: now }, past: { from: new Date(start.getTime() - WINDOW_DAYS * DAY_MS), to: start } };
}

const within = (column: PgColumn, window: Window) => and(gt(column, window.from), lte(column, window.to))!;

const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

const roundToTenth = (value: number) => Math.round(value * 10) / 10;

/** The mean, one decimal; a non-zero mean too small to show is 0.1. */
function averageDays(days: number[]): number {
  if (days.length === 0) return 0;
  const mean = days.reduce((sum, d) => sum + d, 0) / days.length;
  return mean > 0 && roundToTenth(mean) === 0 ? 0.1 : roundToTenth(mean);
}

function healthRating(total: number, stale: number, potentiallyStale: number): number {
  if (total === 0) return 100;
  const rating = Math.round(100 - (stale / total) * 100 - (potentiallyStale / total) * 100);
  return Math.min(100, Math.max(0, rating));
}

async function flagStats(db: Db, projectId: string, { current, past }: ReturnType<typeof windowsAt>) {
  const f = t.features;
  const [row] = await db
    .select({
      createdCurrentWindow: countWhere(within(f.createdAt, current)),
      createdPastWindow: countWhere(within(f.createdAt, past)),
      archivedCurrentWindow: countWhere(within(f.archivedAt, current)),
      archivedPastWindow: countWhere(within(f.archivedAt, past)),
    })
    .from(f)
    .where(eq(f.project, projectId));
  return row!;
}

async function activityStats(db: Db, projectId: string, { current, past }: ReturnType<typeof windowsAt>) {
  const e = t.events;
  const [row] = await db
    .select({
      projectActivityCurrentWindow: countWhere(within(e.createdAt, current)),
      projectActivityPastWindow: countWhere(within(e.createdAt, past)),
    })
    .from(e)
    .where(eq(e.project, projectId));
  return row!;
}

/** Active flags per type: how many, how many stale, how many potentially stale (not stale, older than the type's lifetime). */
async function activeFlagsByType(db: Db, projectId: string) {
  const f = t.features;
  return db
    .select({
      type: f.type,
      count: count(),
      stale: countWhere(eq(f.stale, true)),
      potentiallyStale: countWhere(isPotentiallyStale),
    })
    .from(f)
    .where(and(eq(f.project, projectId), isNull(f.archivedAt)))
    .groupBy(f.type)
    .orderBy(asc(f.type));
}

/** Release flags that reached production: days from creation to their first enabling in a production environment. */
async function timesToProduction(db: Db, projectId: string) {
  const f = t.features;
  const e = t.events;
  const reachedAt = min(e.createdAt);
  return db
    .select({
      name: f.name,
      reachedAt,
      days: sql<number>`extract(epoch from ${reachedAt} - ${f.createdAt}) / 86400`.mapWith(Number),
    })
    .from(f)
    .innerJoin(e, and(eq(e.featureName, f.name), eq(e.type, 'feature-environment-enabled'), gte(e.createdAt, f.createdAt)))
    .innerJoin(t.environments, and(eq(t.environments.name, e.environment), eq(t.environments.type, 'production')))
    .where(and(eq(f.project, projectId), eq(f.type, 'release')))
    .groupBy(f.name, f.createdAt)
    .orderBy(asc(f.name));
}

/**
 * Members: distinct users holding a role in the project, directly or through a group; `change` counts those
 * whose first role there came in the window.
 */
async function memberStats(db: Db, projectId: string, window: Window) {
  const [direct, throughGroups] = await Promise.all([
    db
      .select({ userId: t.projectUserRoles.userId, since: t.projectUserRoles.createdAt })
      .from(t.projectUserRoles)
      .where(eq(t.projectUserRoles.project, projectId)),
    db
      .select({ userId: t.groupUsers.userId, since: sql<Date>`greatest(${t.groupUsers.createdAt}, ${t.projectGroupRoles.createdAt})`.mapWith(t.groupUsers.createdAt) })
      .from(t.projectGroupRoles)
      .innerJoin(t.groupUsers, eq(t.groupUsers.groupId, t.projectGroupRoles.groupId))
      .where(eq(t.projectGroupRoles.project, projectId)),
  ]);
  const firstRole = new Map<number, Date>();
  for (const { userId, since } of [...direct, ...throughGroups]) {
    const known = firstRole.get(userId);
    if (!known || since < known) firstRole.set(userId, since);
  }
  const change = [...firstRole.values()].filter((since) => since > window.from).length;
  return { currentMembers: firstRole.size, change };
}

export const projectInsightHandlers = {
  async getProjectInsights({ params }, { db }) {
    const projectId = params.projectId;
    await requireProject(db, projectId);
    const now = new Date();
    const windows = windowsAt(now);
    const [flags, activity, byType, leadTimes, members] = await Promise.all([
      flagStats(db, projectId, windows),
      activityStats(db, projectId, windows),
      activeFlagsByType(db, projectId),
      timesToProduction(db, projectId),
      memberStats(db, projectId, windows.current),
    ]);
    const total = byType.reduce((sum, row) => sum + row.count, 0);
    const stale = byType.reduce((sum, row) => sum + row.stale, 0);
    const potentiallyStale = byType.reduce((sum, row) => sum + row.potentiallyStale, 0);
    const reachedInCurrentWindow = leadTimes.filter((row) => row.reachedAt !== null && row.reachedAt > windows.current.from);
    return {
      status: 200,
      body: {
        stats: {
          avgTimeToProdCurrentWindow: averageDays(reachedInCurrentWindow.map((row) => row.days)),
          ...flags,
          ...activity,
          projectMembersAddedCurrentWindow: members.change,
        },
        health: {
          rating: healthRating(total, stale, potentiallyStale),
          activeCount: total - stale,
          potentiallyStaleCount: potentiallyStale,
          staleCount: stale,
        },
        leadTime: {
          projectAverage: averageDays(leadTimes.map((row) => row.days)),
          features: leadTimes.map((row) => ({ name: row.name, timeToProduction: roundToTenth(row.days) })),
        },
        featureTypeCounts: byType.map((row) => ({ type: row.type, count: row.count })),
        members,
      },
    };
  },
} satisfies Partial<Handlers>;
