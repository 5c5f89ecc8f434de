// Bodies Unleash's node SDK sends to /api/client/register and /api/client/metrics.
export const sdkVersion = 'unleash-client-node:6.1.0';
/** A registration as the node SDK sends it. */
export const registration = (appName: string, instanceId: string) => ({
  appName,
  instanceId,
  sdkVersion,
  strategies: ['default', 'flexibleRollout'],
  started: new Date().toISOString(),
  interval: 10000,
  platformName: 'node',
  platformVersion: '20',
  yggdrasilVersion: null,
  specVersion: '5.2.0',
});
/** A metrics report as the node SDK sends it, for a 10-second bucket ending at `stop`. */
export const metrics = (appName: string, instanceId: string, stop: string, toggles: Record<string, unknown>) => ({
  appName,
  instanceId,
  environment: 'default',
  sdkVersion,
  platformName: 'node',
  platformVersion: '20',
  yggdrasilVersion: null,
  specVersion: '5.2.0',
  bucket: { start: new Date(Date.parse(stop) - 10_000).toISOString(), stop, toggles },
});
