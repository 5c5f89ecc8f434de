import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { IntegrationConfig } from '../../kernel/config.js';
import { renderDelivery, type RenderedDelivery } from './render.js';
import { backoffMs, isRetryable, retryAfterMs } from './retry-policy.js';
import { Sender, type SendOutcome } from './send.js';

type Delivery = typeof t.integrationDeliveries.$inferSelect;
type EventRow = typeof t.events.$inferSelect;
type Addon = typeof t.addons.$inferSelect;
type Leased = { delivery: Delivery; event: EventRow };

/** Deliveries one worker takes of one integration at a time. */
const BATCH = 50;
/** Integrations served at once by one worker (each one's deliveries go out in order, one after the other). */
const PARALLEL_INTEGRATIONS = 4;

/**
 * Sends the outbox (`integration_deliveries`) to the receivers. Any replica may run one: a worker leases the
 * oldest deliveries of an integration only while nobody holds that integration's first one, so each integration's
 * deliveries go out one at a time, in event order, by one worker. A delivery leaves the outbox in the same
 * transaction that logs its final attempt, so a crash at any point at worst sends it again (at-least-once;
 * receivers can de-duplicate by the `X-Delivery-Id` header).
 */
export class DeliveryWorker {
  private readonly sender: Sender;
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: IntegrationConfig,
    private readonly log: Logger,
  ) {
    this.sender = new Sender(config);
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.config.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due deliveries now (after a change was recorded); calls during a round make one more round. */
  kick(): void {
    if (this.abort.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.rounds().finally(() => (this.running = undefined));
  }

  /** Stops sending: the attempt in flight is abandoned and its lease given back for the next worker. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.abort.abort();
    await this.running;
    await this.sender.close();
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      try {
        if ((await this.round()) > 0) this.again = true;
      } catch (error) {
        this.log.warn({ err: error }, 'integration deliveries: could not read the outbox; trying again shortly');
        return;
      }
    } while (this.again && !this.abort.signal.aborted);
  }

  /** One pass over the integrations with deliveries due; answers how many deliveries it finished. */
  private async round(): Promise<number> {
    const now = new Date();
    const heads = await this.db
      .selectDistinctOn([t.integrationDeliveries.addonId], {
        addonId: t.integrationDeliveries.addonId,
        leasedUntil: t.integrationDeliveries.leasedUntil,
        nextAttemptAt: t.integrationDeliveries.nextAttemptAt,
      })
      .from(t.integrationDeliveries)
      .orderBy(t.integrationDeliveries.addonId, t.integrationDeliveries.id);
    const due = heads.filter((head) => (head.leasedUntil === null || head.leasedUntil < now) && head.nextAttemptAt <= now);
    let finished = 0;
    for (let i = 0; i < due.length && !this.abort.signal.aborted; i += PARALLEL_INTEGRATIONS) {
      const counts = await Promise.all(due.slice(i, i + PARALLEL_INTEGRATIONS).map((head) => this.serve(head.addonId)));
      finished += counts.reduce((a, b) => a + b, 0);
    }
    return finished;
  }

  /** Leases the integration's oldest deliveries to `owner`, if its first one is free and due. */
  private lease(addonId: number, owner: string): Promise<{ addon: Addon; leased: Leased[] } | undefined> {
    return this.db.transaction(async (tx) => {
      const [addon] = await tx.select().from(t.addons).where(eq(t.addons.id, addonId)).for('update', { skipLocked: true });
      if (!addon) return undefined;
      if (!addon.enabled) {
        await tx.delete(t.integrationDeliveries).where(eq(t.integrationDeliveries.addonId, addonId));
        return undefined;
      }
      const now = new Date();
      const rows = await tx
        .select({ delivery: t.integrationDeliveries, event: t.events })
        .from(t.integrationDeliveries)
        .innerJoin(t.events, eq(t.events.id, t.integrationDeliveries.eventId))
        .where(eq(t.integrationDeliveries.addonId, addonId))
        .orderBy(asc(t.integrationDeliveries.id))
        .limit(BATCH);
      const firstNotDue = rows.findIndex(({ delivery }) => (delivery.leasedUntil !== null && delivery.leasedUntil >= now) || delivery.nextAttemptAt > now);
      const leased = firstNotDue === -1 ? rows : rows.slice(0, firstNotDue);
      if (leased.length === 0) return undefined;
      const ids = leased.map(({ delivery }) => delivery.id);
      await tx
        .update(t.integrationDeliveries)
        .set({ leasedUntil: this.leaseEnd(), leaseOwner: owner })
        .where(inArray(t.integrationDeliveries.id, ids));
      return { addon, leased };
    });
  }

  private leaseEnd(): Date {
    return new Date(Date.now() + this.config.leaseMs);
  }

  /** Keeps `owner`'s lease alive while it works: a worker that dies stops renewing, and its lease runs out. */
  private renewing(owner: string): () => void {
    const renew = () =>
      this.db
        .update(t.integrationDeliveries)
        .set({ leasedUntil: this.leaseEnd() })
        .where(eq(t.integrationDeliveries.leaseOwner, owner))
        .catch((error) => this.log.warn({ err: error }, 'integration deliveries: could not renew a lease'));
    const timer = setInterval(renew, Math.max(50, this.config.leaseMs / 3));
    timer.unref();
    return () => clearInterval(timer);
  }

  private async serve(addonId: number): Promise<number> {
    const owner = randomUUID();
    const taken = await this.lease(addonId, owner);
    if (!taken) return 0;
    const stopRenewing = this.renewing(owner);
    let done = 0;
    try {
      for (const item of taken.leased) {
        if (this.abort.signal.aborted) break;
        if (!(await this.deliver(taken.addon, item, owner))) break;
        done++;
      }
    } finally {
      stopRenewing();
      await this.db
        .update(t.integrationDeliveries)
        .set({ leasedUntil: null, leaseOwner: null })
        .where(eq(t.integrationDeliveries.leaseOwner, owner))
        .catch((error) => this.log.warn({ err: error }, 'integration deliveries: could not give a lease back; it runs out by itself'));
    }
    return done;
  }

  private render(addon: Addon, event: EventRow): RenderedDelivery {
    try {
      return renderDelivery(addon, event, this.config.publicUrl);
    } catch (error) {
      return { requests: [], warnings: [`the message could not be made: ${error instanceof Error ? error.message : String(error)}`] };
    }
  }

  /** One attempt; answers whether the delivery left the outbox (delivered or given up). */
  private async deliver(addon: Addon, { delivery, event }: Leased, owner: string): Promise<boolean> {
    const rendered = this.render(addon, event);
    const attempt = delivery.attempts + 1;
    const firstAttemptAt = delivery.firstAttemptAt ?? new Date();
    const outcome: SendOutcome =
      rendered.requests.length === 0
        ? { ok: false, refused: true, response: rendered.warnings.join('; '), durationMs: 0 }
        : await this.sender.send(rendered.requests, { 'x-delivery-id': delivery.deliveryId }, this.abort.signal);
    if (this.abort.signal.aborted) return false;

    const now = Date.now();
    const base = { deliveryId: delivery.deliveryId, attempt, ...(outcome.status !== undefined && { status: outcome.status }), durationMs: outcome.durationMs, response: outcome.response };
    if (outcome.ok) {
      const withErrors = rendered.warnings.length > 0;
      await this.finish(delivery, owner, addon.id, {
        state: withErrors ? 'successWithErrors' : 'success',
        stateDetails: `Delivered${withErrors ? `, but ${rendered.warnings.join('; ')}` : ''}: the receiver answered ${outcome.status}.`,
        details: { ...base, willRetry: false, ...(withErrors && { warnings: rendered.warnings }) },
      });
      return true;
    }
    const what = outcome.status !== undefined ? `the receiver answered ${outcome.status}` : outcome.response;
    const retryable = !outcome.refused && isRetryable(outcome.status);
    const nextAttemptAt = new Date(now + (retryAfterMs(outcome.retryAfterHeader, now) ?? backoffMs(attempt, this.config.retryBaseMs)));
    if (retryable && nextAttemptAt.getTime() <= firstAttemptAt.getTime() + this.config.retryPeriodMs) {
      await this.db.transaction(async (tx) => {
        const [kept] = await tx
          .update(t.integrationDeliveries)
          .set({ attempts: attempt, firstAttemptAt, nextAttemptAt, leasedUntil: null, leaseOwner: null })
          .where(and(eq(t.integrationDeliveries.id, delivery.id), eq(t.integrationDeliveries.leaseOwner, owner)))
          .returning({ id: t.integrationDeliveries.id });
        if (kept) {
          await tx.insert(t.integrationEvents).values({
            addonId: addon.id,
            eventId: event.id,
            state: 'failed',
            stateDetails: `Attempt ${attempt} failed: ${what}; trying again at ${nextAttemptAt.toISOString()}.`,
            details: { ...base, willRetry: true, nextAttemptAt: nextAttemptAt.toISOString() },
          });
        }
      });
      return false;
    }
    const why = outcome.refused ? 'not retried' : retryable ? 'given up after retrying for the configured period' : 'not retried';
    await this.finish(delivery, owner, addon.id, {
      state: 'failed',
      stateDetails: `Attempt ${attempt} failed: ${what}; ${why}.`,
      details: { ...base, willRetry: false },
    });
    return true;
  }

  /**
   * Takes the delivery out of the outbox and logs its last attempt, in one statement (one round trip per
   * delivery); nothing when the lease was lost meanwhile.
   */
  private async finish(delivery: Delivery, owner: string, addonId: number, log: Pick<typeof t.integrationEvents.$inferInsert, 'state' | 'stateDetails' | 'details'>) {
    await this.db.execute(sql`
      with removed as (
        delete from integration_deliveries where id = ${delivery.id} and lease_owner = ${owner} returning id
      )
      insert into integration_events (addon_id, event_id, state, state_details, details)
      select ${addonId}, ${delivery.eventId}, ${log.state}, ${log.stateDetails}, ${JSON.stringify(log.details)}::jsonb from removed`);
  }
}
