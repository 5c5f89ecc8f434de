// A webhook's body template renders within limits: one that cannot fit is refused when made, and one that renders
// too much for an event is a failed attempt, final, instead of freezing the service at every retry for an hour.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { createIntegration, createWebhook, loggedAttempts, receivedCount, refusedEverywhere, webhookBody } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

let app: TestApp;
const unique = uniqueNames();
const { newFlag, addStrategy } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp();
});

const url = 'http://127.0.0.1:9/hook';
const withTemplate = (bodyTemplate: string) => webhookBody({ url, bodyTemplate });

/** Sections nested `depth` deep, each over the event's data. */
const nestedSections = (depth: number) => '{{#event.data}}'.repeat(depth) + 'x' + '{{/event.data}}'.repeat(depth);

/** Sections over a constraint's 100 values, `depth` deep: 100^depth iterations. */
const overValues = (depth: number, inner: string) =>
  `{{#event.data.constraints}}${'{{#values}}'.repeat(depth)}${inner}${'{{/values}}'.repeat(depth)}{{/event.data.constraints}}`;
const values = Array.from({ length: 100 }, (_, i) => `user-${i}`);

describe('a body template', () => {
  it('with sections nested more than 8 deep is refused when made, naming bodyTemplate', async () => {
    for (const message of await refusedEverywhere(app, withTemplate(nestedSections(9)), { url })) expect(message).toContain('parameters.bodyTemplate');
    expect((await createIntegration(app, withTemplate(nestedSections(8)))).parameters.bodyTemplate).toBe(nestedSections(8));
  });

  it.each([
    { what: 'renders more than 1 MB', bodyTemplate: overValues(2, '{{{eventJson}}}'), reason: '1 MB' },
    { what: 'iterates its sections too often, even rendering nothing', bodyTemplate: overValues(3, ''), reason: 'sections' },
  ])('that $what is one failed attempt, final, and the next event is delivered', async ({ bodyTemplate, reason }) => {
    const receiver = await startReceiver();
    const addon = await createWebhook(app, receiver, ['feature-created', 'feature-strategy-add'], { parameters: { bodyTemplate } });
    const flag = await newFlag('exploding');
    const strategy = { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN' as const, values }] };
    await addStrategy(flag, strategy);
    const next = await newFlag('after-exploding');
    const attempts = await loggedAttempts(app, addon.id, 3);
    expect(attempts.map((a) => [a.event.type, a.state, a.details.willRetry])).toEqual([
      ['feature-created', 'success', false],
      ['feature-strategy-add', 'failed', false],
      ['feature-created', 'success', false],
    ]);
    expect(attempts[1]!.stateDetails).toContain('bodyTemplate');
    expect(attempts[1]!.stateDetails).toContain(reason);
    expect(attempts[2]!.event.featureName).toBe(next);
    await receivedCount(receiver, 2);
  });
});
