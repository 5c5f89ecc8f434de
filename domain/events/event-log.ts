import { isDeepStrictEqual } from 'node:util';
import { asc, gt, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import type { Caller } from '../../shared/caller.js';
import { queueDeliveries } from '../integrations/outbox.js';

/** The closed list of event types, from the contract: a misspelt type fails to compile. */
export type EventType = components['schemas']['EventType'];

export interface EventInput {
  type: EventType;
  project?: string | null;
  featureName?: string | null;
  environment?: string | null;
  data?: object | null;
  preData?: object | null;
  /** When absent and the event names a flag, the flag's current tags are attached. */
  tags?: { type: string; value: string }[];
}

/** Records one event, or many at once (written in batches: an import's thousands of events cost a few statements). */
export type RecordEvent = (event: EventInput | EventInput[]) => Promise<void>;

/** What a committed event says about what changed. */
export interface ChangedEvent {
  id: number;
  type: EventType;
  featureName: string | null;
  project: string | null;
  environment: string | null;
  /** The project a flag left, for a move between projects (its data's `oldProject`): SDKs of that project must hear of it. */
  formerProject: string | null;
}

const formerProjectOf = (data: object | null | undefined) => {
  const oldProject = (data as { oldProject?: unknown } | null | undefined)?.oldProject;
  return typeof oldProject === 'string' ? oldProject : null;
};

/** `events` null: something changed, but which events is not known (treat everything as changed). */
export interface Change {
  revision: number;
  events: ChangedEvent[] | null;
}

export type ChangeListener = (change: Change) => void;


/** The most events read at once when catching up with other replicas; past that, everything counts as changed. */
const CATCH_UP_LIMIT = 5000;

/**
 * The one way to record events: inside the caller's transaction, through `change`. The revision is the
 * highest event id; listeners hear of changes only after their transaction committed, whether made here
 * or, through `catchUp`, by another replica.
 */
export class EventLog {
  private revisionId = 0;
  private readonly listeners = new Set<ChangeListener>();

  /** `announce` runs inside every changing transaction (e.g. a NOTIFY that other replicas hear at commit). */
  constructor(
    private readonly db: Db,
    private readonly announce?: (tx: Db) => Promise<void>,
  ) {}

  get revision(): number {
    return this.revisionId;
  }

  async load(): Promise<void> {
    const [row] = await this.db.select({ id: max(t.events.id) }).from(t.events);
    this.revisionId = Math.max(this.revisionId, Number(row?.id ?? 0));
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: Change): void {
    this.revisionId = Math.max(this.revisionId, change.revision);
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Reads the events committed since the last one known here and tells the listeners. With `certain`,
   * a change is known to have happened: when no new event is found (a transaction that took an older id
   * committed late), listeners are told that something changed anyway.
   */
  async catchUp(certain = false): Promise<void> {
    const rows = await this.db
      .select({
        id: t.events.id,
        type: t.events.type,
        featureName: t.events.featureName,
        project: t.events.project,
        environment: t.events.environment,
        formerProject: sql<string | null>`${t.events.data}->>'oldProject'`,
      })
      .from(t.events)
      .where(gt(t.events.id, this.revisionId))
      .orderBy(asc(t.events.id))
      .limit(CATCH_UP_LIMIT + 1);
    if (rows.length > CATCH_UP_LIMIT) return this.emit({ revision: rows[rows.length - 1]!.id, events: null });
    if (rows.length > 0) return this.emit({ revision: rows[rows.length - 1]!.id, events: rows });
    if (certain) this.emit({ revision: this.revisionId, events: null });
  }

  async change<T>(caller: Caller, work: (tx: Db, record: RecordEvent) => Promise<T>): Promise<T> {
    const recorded: ChangedEvent[] = [];
    const result = await this.db.transaction(async (tx) => {
      const record: RecordEvent = async (event) => {
        recorded.push(...(await insertEvents(tx as Db, caller, Array.isArray(event) ? event : [event])));
      };
      const outcome = await work(tx as Db, record);
      if (recorded.length > 0 && this.announce) await this.announce(tx as Db);
      return outcome;
    });
    if (recorded.length > 0) this.emit({ revision: recorded.reduce((highest, e) => Math.max(highest, e.id), 0), events: recorded });
    return result;
  }
}

/** Rows one INSERT writes at most. */
const EVENT_BATCH = 1000;

/** The tags of each flag, for events that did not bring theirs. */
async function tagsOfFlags(tx: Db, names: string[]) {
  const tags = new Map<string, { type: string; value: string }[]>(names.map((name) => [name, []]));
  if (names.length === 0) return tags;
  const rows = await tx
    .select({ featureName: t.featureTags.featureName, type: t.featureTags.tagType, value: t.featureTags.tagValue })
    .from(t.featureTags)
    .where(inArray(t.featureTags.featureName, names));
  for (const row of rows) tags.get(row.featureName)!.push({ type: row.type, value: row.value });
  return tags;
}

/**
 * Writes the event rows and queues their integration deliveries, in order; an update whose data equals its
 * preData writes nothing. Answers what was written.
 */
async function insertEvents(tx: Db, caller: Caller, events: EventInput[]): Promise<ChangedEvent[]> {
  const written: ChangedEvent[] = [];
  const changing = events.filter((event) => !(event.data != null && event.preData != null && isDeepStrictEqual(event.data, event.preData)));
  for (let start = 0; start < changing.length; start += EVENT_BATCH) {
    const batch = changing.slice(start, start + EVENT_BATCH);
    const untagged = [...new Set(batch.filter((e) => e.tags === undefined && e.featureName).map((e) => e.featureName!))];
    const tags = await tagsOfFlags(tx, untagged);
    const rows = await tx
      .insert(t.events)
      .values(
        batch.map((event) => ({
          type: event.type,
          createdBy: caller.name,
          createdByUserId: caller.userId,
          project: event.project ?? null,
          featureName: event.featureName ?? null,
          environment: event.environment ?? null,
          data: event.data ?? null,
          preData: event.preData ?? null,
          tags: event.tags ?? (event.featureName ? tags.get(event.featureName)! : []),
        })),
      )
      .returning({ id: t.events.id });
    const inserted = batch.map((event, i) => ({
      id: rows[i]!.id,
      type: event.type,
      project: event.project ?? null,
      featureName: event.featureName ?? null,
      environment: event.environment ?? null,
      formerProject: formerProjectOf(event.data),
    }));
    await queueDeliveries(tx, inserted);
    written.push(...inserted);
  }
  return written;
}
