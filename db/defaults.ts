import { eq } from 'drizzle-orm';
import type { Db } from './types.js';
import * as t from './schema.js';
import { permissionRows, roleRows, rolePermissionGrants } from './default-permissions.js';

const DEFAULTS_MARKER = 'defaults-applied';

const environmentRows = [
  { name: 'development', type: 'development', sortOrder: 2 },
  { name: 'production', type: 'production', sortOrder: 3 },
];

const featureTypeRows = [
  { id: 'release', name: 'Release', description: 'Release feature flags are used to release new features.', lifetimeDays: 40 },
  { id: 'experiment', name: 'Experiment', description: 'Experiment feature flags are used to test and verify multiple different versions of a feature.', lifetimeDays: 40 },
  { id: 'operational', name: 'Operational', description: 'Operational feature flags are used to control aspects of a rollout.', lifetimeDays: 7 },
  { id: 'kill-switch', name: 'Kill switch', description: 'Kill switch feature flags are used to quickly turn on or off critical functionality in your system.', lifetimeDays: null },
  { id: 'permission', name: 'Permission', description: 'Permission feature flags are used to control permissions in your system.', lifetimeDays: null },
];

const strategyRows: (typeof t.strategies.$inferInsert)[] = [
  {
    name: 'flexibleRollout',
    title: 'Gradual rollout',
    description: 'Roll out to a percentage of your userbase, and ensure that the experience is the same for the user on each visit.',
    sortOrder: 0,
    parameters: [
      { name: 'rollout', type: 'percentage', description: '', required: false },
      { name: 'stickiness', type: 'string', description: 'Used define stickiness. Possible values: default, userId, sessionId, random', required: true },
      { name: 'groupId', type: 'string', description: 'Used to define a activation groups, which allows you to correlate across feature toggles.', required: true },
    ],
  },
  {
    name: 'default',
    title: 'Standard',
    description: 'This strategy turns on / off for your entire userbase. Prefer using "Gradual rollout" strategy (100%=on, 0%=off).',
    sortOrder: 1,
    parameters: [],
  },
  {
    name: 'remoteAddress',
    title: 'IPs',
    description: 'Enable the feature for a specific set of IP addresses.',
    sortOrder: 3,
    parameters: [{ name: 'IPs', type: 'list', description: 'List of IPs to enable the feature toggle for.', required: true }],
  },
  {
    name: 'applicationHostname',
    title: 'Hosts',
    description: 'Enable the feature for a specific set of hostnames.',
    sortOrder: 4,
    parameters: [{ name: 'hostNames', type: 'list', description: 'List of hostnames to enable the feature toggle for.', required: false }],
  },
];

const contextFieldRows = [
  { name: 'environment', description: 'Allows you to constrain on application environment', stickiness: false, sortOrder: 0 },
  { name: 'userId', description: 'Allows you to constrain on userId', stickiness: false, sortOrder: 1 },
  { name: 'appName', description: 'Allows you to constrain on application name', stickiness: false, sortOrder: 2 },
  { name: 'currentTime', description: 'Allows you to constrain on date values', stickiness: false, sortOrder: 3 },
  { name: 'sessionId', description: 'Allows you to constrain on sessionId', stickiness: true, sortOrder: 4 },
];

/**
 * Writes the rows every fresh database starts with, once: a database that has them already (even
 * changed by its users since) is left alone.
 */
export async function applyDefaults(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const marker = await tx.select().from(t.settings).where(eq(t.settings.name, DEFAULTS_MARKER));
    if (marker.length > 0) return;
    await tx.insert(t.permissions).values(permissionRows);
    await tx.insert(t.roles).values(roleRows);
    await tx.insert(t.rolePermissions).values(rolePermissionGrants(environmentRows.map((e) => e.name)));
    await tx.insert(t.environments).values(environmentRows);
    await tx.insert(t.projects).values({ id: 'default', name: 'Default', description: 'Default project' });
    await tx.insert(t.projectEnvironments).values(environmentRows.map((e) => ({ project: 'default', environment: e.name })));
    await tx.insert(t.tagTypes).values({ name: 'simple', description: 'Used to simplify filtering of features', icon: '#', color: '#FFFFFF' });
    await tx.insert(t.featureTypes).values(featureTypeRows);
    await tx.insert(t.strategies).values(strategyRows.map((s) => ({ ...s, builtIn: true })));
    await tx.insert(t.contextFields).values(contextFieldRows);
    await tx.insert(t.settings).values({ name: DEFAULTS_MARKER, content: { at: new Date().toISOString() } });
  });
}
