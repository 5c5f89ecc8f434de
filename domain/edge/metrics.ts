// What an edge adds to /internal-backstage/prometheus: how far behind its upstream each scope is, when each token's
// flags last synced, and the SDK reports waiting to be forwarded.
import { Gauge, type Registry } from 'prom-client';
import type { EdgeReports } from './reports.js';
import type { EdgeScopes } from './scopes.js';
import { redacted, type EdgeTokens } from './tokens.js';

const seconds = (ms: number) => ms / 1000;

export function registerEdgeMetrics(registry: Registry, scopes: EdgeScopes, tokens: EdgeTokens, reports: EdgeReports): void {
  new Gauge({
    name: 'edge_upstream_lag_seconds',
    help: 'Seconds since the upstream last confirmed a scope\'s flags (a stream message or heartbeat, or a poll); -1 when never.',
    labelNames: ['environment', 'projects'],
    registers: [registry],
    collect(this: Gauge) {
      this.reset();
      for (const scope of scopes.all()) {
        this.set({ environment: scope.environment, projects: scope.projects?.join(',') ?? '*' }, scope.lastSync === 0 ? -1 : seconds(Date.now() - scope.lastSync));
      }
    },
  });
  new Gauge({
    name: 'edge_token_last_sync_timestamp_seconds',
    help: 'When the flags a token is served from were last confirmed by the upstream (Unix time); 0 when never. The token is shown by its scope only.',
    labelNames: ['token'],
    registers: [registry],
    collect(this: Gauge) {
      this.reset();
      for (const token of tokens.all()) {
        this.set({ token: redacted(token.secret) }, seconds(scopes.scopeOfToken(token)?.lastSync ?? 0));
      }
    },
  });
  new Gauge({
    name: 'edge_reports_pending',
    help: 'SDK report entries (counts and instances) waiting to be forwarded to the upstream.',
    registers: [registry],
    collect(this: Gauge) {
      this.set(reports.pending);
    },
  });
  new Gauge({
    name: 'edge_reports_dropped',
    help: 'SDK report entries dropped since the start because the pending bound was reached while the upstream was away.',
    registers: [registry],
    collect(this: Gauge) {
      this.set(reports.dropped);
    },
  });
}
