// The real Node SDK, unleash-client 6.12.1, through an edge node in each of its modes (polling, delta polling,
// streaming), the edge following its upstream by stream or by polling: every kind of change reaches the SDK, and a
// project-scoped token the edge has not seen is learned at its first use.
import type { Unleash } from 'unleash-client';
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startEdge, type TestEdge } from './support/edge.js';
import { uniqueNames } from './support/events.js';
import { fixtures, newApiToken } from './support/fixtures.js';
import { itFollowsEveryChange, nodeSdk, ready, seedSdkFlags, stopSdk, type SdkMode } from './support/sdk-changes.js';

describe.each<[string, SdkMode, 'auto' | 'polling']>([
  ['polling', undefined, 'auto'],
  ['delta', { type: 'polling', format: 'delta' }, 'auto'],
  ['streaming', { type: 'streaming' }, 'auto'],
  ['streaming-edge-polls', { type: 'streaming' }, 'polling'],
])('the SDK in %s mode through an edge', (label, mode, edgeSync) => {
  let app: TestApp;
  let edge: TestEdge;
  let sdk: Unleash;
  let segmentId: number;
  const given = fixtures(() => app, uniqueNames());
  const name = (flag: string) => `${label}.${flag}`;

  beforeAll(async () => {
    app = await startTestApp();
    segmentId = await seedSdkFlags(given, name);
    const token = await newApiToken(app, { type: 'client', environment: 'development' });
    edge = await startEdge({ EDGE_UPSTREAM_URL: app.url, EDGE_TOKENS: token, EDGE_SYNC: edgeSync });
    sdk = nodeSdk(edge.url, token, mode, `sdk-${label}`);
    await ready(sdk);
  });

  afterAll(() => sdk && stopSdk(sdk));

  itFollowsEveryChange(() => ({ app, sdk, segmentId, another: (token, sdkName) => nodeSdk(edge.url, token, mode, sdkName) }), given, name, `${label}-scoped`);
});
