import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import type { components } from '../../generated/api.js';

type EventType = components['schemas']['EventType'];

export interface OutboxEvent {
  id: number;
  type: EventType;
  project: string | null;
  environment: string | null;
}

/**
 * Queues each event for every enabled integration that subscribes to its type and covers its project and
 * environment (empty or `*` covers all; an event without one is always covered). Runs in the events' own
 * transaction, so a committed event always has its deliveries and a rolled-back one never does. Deliveries are
 * numbered in event order, which is the order each integration gets them in.
 */
export async function queueDeliveries(tx: Db, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`
    insert into integration_deliveries (addon_id, event_id, delivery_id)
    select a.id, e.id, gen_random_uuid()::text
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as e(id bigint, type text, project text, environment text)
    join addons a on a.enabled
      and a.events @> jsonb_build_array(e.type)
      and (e.project is null or jsonb_array_length(a.projects) = 0 or a.projects @> jsonb_build_array(e.project) or a.projects @> '["*"]')
      and (e.environment is null or jsonb_array_length(a.environments) = 0
           or a.environments @> jsonb_build_array(e.environment) or a.environments @> '["*"]')
    order by e.id, a.id`);
}
