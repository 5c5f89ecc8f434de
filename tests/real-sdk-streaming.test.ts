// The real Unleash SDK in its streaming and delta-polling modes: ready with every flag, then each kind of change.
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken, scrapeOf } from './support/fixtures.js';
import { itFollowsEveryChange, nodeSdk, ready, seedSdkFlags, stopSdk, type SdkMode } from './support/sdk-changes.js';

describe.each<[string, NonNullable<SdkMode>]>([
  ['streaming', { type: 'streaming' }],
  ['delta polling', { type: 'polling', format: 'delta' }],
])('the SDK in %s mode', (label, mode) => {
  let app: TestApp;
  let sdk: Unleash;
  let segmentId: number;
  const given = fixtures(() => app, uniqueNames());
  const name = (flag: string) => `${label.replace(' ', '-')}.${flag}`;

  beforeAll(async () => {
    app = await startTestApp();
    segmentId = await seedSdkFlags(given, name);
    sdk = nodeSdk(app.url, await newApiToken(app, { type: 'client', environment: 'development' }), mode, `sdk-${label}`);
    await ready(sdk);
  });

  afterAll(() => sdk && stopSdk(sdk));

  it(mode.type === 'streaming' ? 'holds a stream open' : 'polls the delta endpoint, holding no stream', async () => {
    const scraped = (await scrapeOf(app)).text;
    expect(/^client_streams_open (\d+)$/m.exec(scraped)?.[1]).toBe(mode.type === 'streaming' ? '1' : '0');
    if (mode.type === 'polling') expect(scraped).toMatch(/http_request_duration_milliseconds_count\{[^}]*path="\/api\/client\/delta"/);
  });

  itFollowsEveryChange(() => ({ app, sdk, segmentId, another: (token, sdkName) => nodeSdk(app.url, token, mode, sdkName) }), given, name, `${label.replace(' ', '-')}-scoped`);
});
