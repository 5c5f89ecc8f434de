// State import calls: the document as a JSON body, or as the `file` field of a multipart form.
import { expect } from 'vitest';
import type { components, operations, ServiceClient } from '../../client/index.js';
import { call, type RawResponse, type TestApp } from './app.js';
import type { eventReader } from './events.js';
import { ok } from './fixtures.js';

type ImportQuery = NonNullable<operations['importState']['parameters']['query']>;

/**
 * POSTs the document as the JSON body of an import, as `client` (the admin token by default). Typed as the
 * contract's `StateDocument`, an open object: the document is checked whole by the service, not by `tsc`.
 */
export const importDocument = (app: TestApp, document: components['schemas']['StateDocument'], query: ImportQuery = {}, client: ServiceClient = app.admin) =>
  client.POST('/api/admin/state/import', { params: { query }, body: document });

/** POSTs anything as the JSON body of an import: for documents the contract itself refuses. */
export const importMalformed = (app: TestApp, document: unknown, query = '') =>
  call(app, 'POST', `/api/admin/state/import${query && `?${query}`}`, { body: document as object });

/** POSTs a multipart form whose fields are given as text or as a file (`{content, filename}`), as a browser would. */
export async function importForm(app: TestApp, fields: Record<string, string | { content: string; filename: string }>, query = ''): Promise<RawResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.content]), value.filename);
  }
  const response = await fetch(`${app.url}/api/admin/state/import${query && `?${query}`}`, { method: 'POST', body: form, headers: { authorization: app.adminToken } });
  const text = await response.text();
  return { status: response.status, headers: Object.fromEntries(response.headers), text, json: text ? JSON.parse(text) : undefined };
}

/** The instance's complete export: what an import that must write nothing is compared against. */
export async function completeState(app: TestApp): Promise<unknown> {
  return ok(app.admin.GET('/api/admin/state/export', { params: { query: { version: 2 } } }), 200);
}

/** Runs a request that must change nothing: the complete export is the same after it, and no event was written. */
export async function expectNothingWritten<Answer>(app: TestApp, events: ReturnType<typeof eventReader>, request: () => Promise<Answer>): Promise<Answer> {
  const [before, since] = [await completeState(app), await events.latestEventId()];
  const response = await request();
  expect(await completeState(app)).toEqual(before);
  expect(await events.eventsSince(since)).toEqual([]);
  return response;
}
