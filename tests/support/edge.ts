// An edge node started inside a test, in front of an upstream (a test app, another edge, or a proxy to either).
import { buildEdge } from '../../app/edge.js';
import { edgeConfigFromEnv } from '../../kernel/edge-config.js';
import { createClient, type ServiceClient } from '../../client/index.js';
import { capturedLogs, listenUntilFileEnds } from './app.js';

export interface TestEdge {
  url: string;
  logs: string[];
  clientWith(token: string): ServiceClient;
  close(): Promise<void>;
}

/** Starts an edge from environment variables, as `npm start` would read them, on a free port; closed after the file. */
export async function startEdge(env: Record<string, string>): Promise<TestEdge> {
  const { logs, logStream } = capturedLogs();
  const config = edgeConfigFromEnv({ EDGE_TOKEN_REVALIDATE_MS: '500', EDGE_METRICS_INTERVAL_MS: '200', EDGE_POLL_INTERVAL_MS: '200', ...env });
  if (!config) throw new Error('startEdge needs EDGE_UPSTREAM_URL or EDGE_OFFLINE_FILE');
  const { app } = await buildEdge({ ...config, port: 0, host: '127.0.0.1', logStream });
  const { url, close } = await listenUntilFileEnds(app);
  return { url, logs, clientWith: (token) => createClient(url, { token }), close };
}
