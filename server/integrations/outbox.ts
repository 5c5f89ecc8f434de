import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import type { EventType } from '../events.js';

export interface OutboxEvent {
  id: number;
  type: EventType;
  project: string | null;
  environment: string | null;
}

/**
 * Queues the event for every enabled integration that subscribes to its type and covers its project and
 * environment (empty or `*` covers all; an event without one is always covered). Runs in the event's own
 * transaction, so a committed event always has its deliveries and a rolled-back one never does.
 */
export async function queueDeliveries(tx: Db, event: OutboxEvent): Promise<void> {
  await tx.execute(sql`
    insert into integration_deliveries (addon_id, event_id, delivery_id)
    select a.id, ${event.id}, gen_random_uuid()::text
    from addons a
    where a.enabled
      and a.events @> jsonb_build_array(${event.type}::text)
      and (${event.project}::text is null or jsonb_array_length(a.projects) = 0
           or a.projects @> jsonb_build_array(${event.project}::text) or a.projects @> '["*"]')
      and (${event.environment}::text is null or jsonb_array_length(a.environments) = 0
           or a.environments @> jsonb_build_array(${event.environment}::text) or a.environments @> '["*"]')
    order by a.id`);
}
