import type { TestApp } from './app.js';

/** Reads the event list of the app `current()` returns (apps are started in beforeAll, after this runs). */
export function eventReader(current: () => TestApp) {
  const events = async () => {
    const { data } = await current().admin.GET('/api/admin/events');
    return data!.events;
  };
  return {
    /** The id of the newest event, to tell which events a request wrote. */
    latestEventId: async (): Promise<number> => (await events())[0]?.id ?? 0,
    /** Events written after `since`, oldest first. */
    eventsSince: async (since: number) => (await events()).filter((e) => e.id > since).reverse(),
  };
}

/** Names no other test of the file uses: `prefix-1`, `prefix-2`… */
export function uniqueNames(): (prefix: string) => string {
  let counter = 0;
  return (prefix) => `${prefix}-${++counter}`;
}
