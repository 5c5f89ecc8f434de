// Requests answered on /api/…, counted per 5 minutes, application and endpoint group: the service's own
// source for GET /api/admin/metrics/rps. Kept in memory here, written by the client metrics store's flush.

/** The width of a bucket, and the step of the usage metrics. */
export const BUCKET_MS = 300_000;
/** How long buckets are kept in the database (the usage metrics read the last 6 hours). */
export const REQUEST_COUNTS_KEPT_MS = 24 * 3_600_000;
/** The application of a request that names none. */
const UNKNOWN_APP = 'unknown';

/** Requests in one bucket from one application to one endpoint group: a row of `request_counts`. */
export interface RequestCount {
  bucket: Date;
  appName: string;
  endpoint: string;
  count: number;
}

/** Unleash's label_replace of the path: `/api/admin`, `/api/frontend`, `/api/client/features`, … */
const ENDPOINT_GROUP = /^(\/api\/(?:client\/)?[^/*]*)/;

/** The start of the bucket `time` (ms) lies in. */
export const bucketOf = (time: number) => Math.floor(time / BUCKET_MS) * BUCKET_MS;

/** bucket start (ms) → endpoint group → application → requests. */
type Buckets = Map<number, Map<string, Map<string, number>>>;

/**
 * Counts cheaply enough for the client API's hot path: a request is two Map lookups and an increment, with
 * nothing allocated once its route, group and application have been seen.
 */
export class RequestCounts {
  private buckets: Buckets = new Map();
  private currentStart = Number.NaN;
  private current = new Map<string, Map<string, number>>();
  /** Route pattern → its endpoint group, or null outside /api (patterns are few: the routes the app has). */
  private readonly groups = new Map<string, string | null>();

  /** One request to the route `route` (a pattern, never a raw URL, so that groups stay few) from `appName` ('' when unnamed). */
  add(route: string, appName: string): void {
    let group = this.groups.get(route);
    if (group === undefined) this.groups.set(route, (group = ENDPOINT_GROUP.exec(route)?.[1] ?? null));
    if (group === null) return;
    const now = Date.now();
    if (!(now >= this.currentStart && now < this.currentStart + BUCKET_MS)) this.enter(now);
    let byApp = this.current.get(group);
    if (!byApp) this.current.set(group, (byApp = new Map()));
    const app = appName || UNKNOWN_APP;
    byApp.set(app, (byApp.get(app) ?? 0) + 1);
  }

  isEmpty(): boolean {
    return this.buckets.size === 0;
  }

  /** Everything counted so far, emptied here (for the flush). */
  take(): RequestCount[] {
    const taken = this.counted(Number.NEGATIVE_INFINITY);
    this.buckets = new Map();
    this.currentStart = Number.NaN;
    return taken;
  }

  /** What a failed flush could not write, added back; buckets past the kept period are dropped. */
  restore(count: RequestCount): void {
    const bucket = count.bucket.getTime();
    if (bucket < Date.now() - REQUEST_COUNTS_KEPT_MS) return;
    const byGroup = this.buckets.get(bucket) ?? new Map<string, Map<string, number>>();
    this.buckets.set(bucket, byGroup);
    const byApp = byGroup.get(count.endpoint) ?? new Map<string, number>();
    byGroup.set(count.endpoint, byApp);
    byApp.set(count.appName, (byApp.get(count.appName) ?? 0) + count.count);
  }

  /** The counts not flushed yet of the buckets from `since` (ms) on, left in place. */
  counted(since: number): RequestCount[] {
    const counts: RequestCount[] = [];
    for (const [bucket, byGroup] of this.buckets) {
      if (bucket < since) continue;
      for (const [endpoint, byApp] of byGroup) {
        for (const [appName, count] of byApp) counts.push({ bucket: new Date(bucket), appName, endpoint, count });
      }
    }
    return counts;
  }

  private enter(now: number): void {
    this.currentStart = bucketOf(now);
    let current = this.buckets.get(this.currentStart);
    if (!current) this.buckets.set(this.currentStart, (current = new Map()));
    this.current = current;
  }
}
