// What proposing a change checks of its payload before anything is stored (the shape its direct operation takes: an
// object, a strategy id, no field the action does not read), and what the event of an applied request says.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, startTestApp, type TestApp } from './support/app.js';
import { approver, author, changeRequestCalls, requireChangeRequests } from './support/change-requests.js';
import { eventReader, uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import type { TestUser } from './support/users.js';

let app: TestApp;
let editor: TestUser;
let reviewer: TestUser;
let flag: string;
const unique = uniqueNames();
const { newFlag } = fixtures(() => app, unique);
const { proposeRaw, moveTo, requestIn } = changeRequestCalls(() => app);
const events = eventReader(() => app);

beforeAll(async () => {
  app = await startTestApp();
  await requireChangeRequests(app, 'default', 'production');
  [editor, reviewer] = [await author(app), await approver(app, 'default', 'production')];
  flag = await newFlag('payloads');
});

/** Proposes one change as the Editor (raw: these payloads are outside what the types allow); answers the 400's message. */
const payloadRefusal = async (action: string, payload: unknown) =>
  expectError(await proposeRaw(editor, { feature: flag, action, payload }), 400, 'ValidationError').message;

describe('a proposed payload', () => {
  it('is refused when it is an array where the action takes an object', async () => {
    expect(await payloadRefusal('updateStrategy', [{ id: 'some-strategy', name: 'default' }])).toContain('payload must be an object.');
  });

  it.each([
    ['empty', ''],
    ['longer than 100 characters', 'x'.repeat(101)],
    ['a number', 7],
  ])('is refused when its strategy id is %s', async (_, id) => {
    expect(await payloadRefusal('updateStrategy', { id, name: 'default' })).toContain('payload.id must be the id of a strategy of the flag.');
  });

  it('may name a strategy id of 100 characters (whether it exists is checked when applied)', async () => {
    const response = await proposeRaw(editor, { feature: flag, action: 'updateStrategy', payload: { id: 'x'.repeat(100), name: 'default' } });
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ['updateEnabled', { enabled: true, note: 'x' }],
    ['deleteStrategy', { id: 'some-strategy', note: 'x' }],
    ['patchVariant', { variants: [], note: 'x' }],
  ])('of %s is refused naming a field the action does not read', async (action, payload) => {
    expect(await payloadRefusal(action, payload)).toContain('payload has the unknown field "note".');
  });
});

describe('an applied request', () => {
  it("is recorded with its project and environment, and the request's id and state before and after", async () => {
    const request = await requestIn('Approved', [{ feature: await newFlag('applied'), action: 'updateEnabled', payload: { enabled: true } }], { reviewer });
    const since = await events.latestEventId();
    expect((await moveTo(reviewer, request.id, 'Applied')).response.status).toBe(200);

    const applied = (await events.eventsSince(since)).find((e) => e.type === 'change-request-applied');
    expect(applied).toMatchObject({
      project: 'default',
      environment: 'production',
      data: { id: request.id, state: 'Applied' },
      preData: { id: request.id, state: 'Approved' },
    });
  });
});
