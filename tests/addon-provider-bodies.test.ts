// What each provider sends: Slack messages per channel, a Teams card, a Datadog event.
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures } from './support/fixtures.js';
import { createIntegration, receivedCount } from './support/integrations.js';
import { startReceiver } from './support/receiver.js';

const PUBLIC_URL = 'https://flags.example.com';
let app: TestApp;
const unique = uniqueNames();
const { newFlag, turnOn } = fixtures(() => app, unique);

beforeAll(async () => {
  app = await startTestApp({ integrations: { publicUrl: PUBLIC_URL } });
});

describe('chat providers', () => {
  it('slack posts one message per channel its flag tags name, else to the default channel', async () => {
    const receiver = await startReceiver();
    await createIntegration(app, {
      provider: 'slack',
      enabled: true,
      events: ['feature-environment-enabled'],
      parameters: { url: `${receiver.url}/slack`, defaultChannel: 'general', username: 'Flags' },
    });
    const untagged = await newFlag('chat');
    const tagged = await newFlag('chat', 'default', { tags: ['slack:releases', 'slack:checkout'] });
    for (const flag of [untagged, tagged]) await turnOn(flag);
    const requests = await receivedCount(receiver, 3);
    const messages = requests.map((r) => `${r.json.channel} ${r.json.text.includes(untagged) ? 'untagged' : 'tagged'}`);
    expect(messages.sort()).toEqual(['#checkout tagged', '#general untagged', '#releases tagged']);
    expect(requests[0]!.json).toMatchObject({ username: 'Flags' });
    expect(requests[0]!.json.text).toContain('admin');
  });

  it('slack links the flag under UNLEASH_URL with an Open button', async () => {
    const receiver = await startReceiver();
    await createIntegration(app, {
      provider: 'slack',
      enabled: true,
      events: ['feature-created'],
      parameters: { url: `${receiver.url}/slack`, defaultChannel: 'general' },
    });
    const flag = await newFlag('linked');
    const [request] = await receivedCount(receiver, 1);
    const link = `${PUBLIC_URL}/projects/default/features/${flag}`;
    expect(request!.json.text).toContain(link);
    expect(request!.json.attachments[0].actions[0]).toMatchObject({ type: 'button', url: link });
  });

  it('teams posts a message card naming who did what, with a link to the flag', async () => {
    const receiver = await startReceiver();
    await createIntegration(app, { provider: 'teams', enabled: true, events: ['feature-environment-enabled'], parameters: { url: `${receiver.url}/teams` } });
    const flag = await newFlag('carded');
    await turnOn(flag);
    const [request] = await receivedCount(receiver, 1);
    expect(request!.json['@type']).toBe('MessageCard');
    const section = request!.json.sections[0];
    expect(section.activityTitle).toContain(flag);
    expect(section.facts).toEqual(expect.arrayContaining([{ name: 'User', value: 'admin' }, { name: 'Action', value: 'feature-environment-enabled' }]));
    expect(request!.json.potentialAction[0].targets[0].uri).toBe(`${PUBLIC_URL}/projects/default/features/${flag}`);
  });

  it('datadog posts an event with its API key header and the flag tags', async () => {
    const receiver = await startReceiver();
    await createIntegration(app, {
      provider: 'datadog',
      enabled: true,
      events: ['feature-environment-enabled'],
      parameters: { url: `${receiver.url}/api/v1/events`, apiKey: 'dd-secret-key', sourceTypeName: 'flags' },
    });
    const flag = await newFlag('dogged', 'default', { tags: ['datadog:team-a'] });
    await turnOn(flag);
    const [request] = await receivedCount(receiver, 1);
    expect(request!.headers['dd-api-key']).toBe('dd-secret-key');
    expect(request!.json).toMatchObject({ title: 'Unleash notification update', source_type_name: 'flags' });
    expect(request!.json.tags).toContain('datadog:team-a');
    expect(request!.json.text).toContain(flag);
  });
});
