import { isDeepStrictEqual } from 'node:util';
import { eq, max } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import * as t from '../db/schema.js';
import type { Caller } from './caller.js';

export interface EventInput {
  type: string;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: object | null;
  preData?: object | null;
  /** When absent and the event names a flag, the flag's current tags are attached. */
  tags?: { type: string; value: string }[];
}

export type RecordEvent = (event: EventInput) => Promise<void>;
export type RevisionListener = (revision: number) => void;

async function currentTags(tx: Db, featureName: string) {
  const rows = await tx
    .select({ type: t.featureTags.tagType, value: t.featureTags.tagValue })
    .from(t.featureTags)
    .where(eq(t.featureTags.featureName, featureName));
  return rows;
}

/**
 * The one way to record events: inside the caller's transaction, through `change`. The revision is the
 * highest event id; listeners hear of a new one only after its transaction committed.
 */
export class EventLog {
  private revisionId = 0;
  private readonly listeners = new Set<RevisionListener>();

  constructor(private readonly db: Db) {}

  get revision(): number {
    return this.revisionId;
  }

  async load(): Promise<void> {
    const [row] = await this.db.select({ id: max(t.events.id) }).from(t.events);
    this.advance(Number(row?.id ?? 0));
  }

  onRevision(listener: RevisionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves the revision forward (never back) and tells the listeners. */
  advance(revision: number): void {
    if (revision <= this.revisionId) return;
    this.revisionId = revision;
    for (const listener of this.listeners) listener(revision);
  }

  async change<T>(caller: Caller, work: (tx: Db, record: RecordEvent) => Promise<T>): Promise<T> {
    let highest = 0;
    const result = await this.db.transaction(async (tx) => {
      const record: RecordEvent = async (event) => {
        const id = await insertEvent(tx as Db, caller, event);
        if (id !== undefined) highest = Math.max(highest, id);
      };
      return work(tx as Db, record);
    });
    if (highest > 0) this.advance(highest);
    return result;
  }
}

/** Writes one event row; an update whose data equals its preData writes nothing. */
async function insertEvent(tx: Db, caller: Caller, event: EventInput): Promise<number | undefined> {
  if (event.data != null && event.preData != null && isDeepStrictEqual(event.data, event.preData)) return undefined;
  const tags = event.tags ?? (event.featureName ? await currentTags(tx, event.featureName) : []);
  const [row] = await tx
    .insert(t.events)
    .values({
      type: event.type,
      createdBy: caller.name,
      createdByUserId: caller.userId,
      project: event.project ?? null,
      featureName: event.featureName ?? null,
      environment: event.environment ?? null,
      data: event.data ?? null,
      preData: event.preData ?? null,
      tags,
    })
    .returning({ id: t.events.id });
  return row?.id;
}
