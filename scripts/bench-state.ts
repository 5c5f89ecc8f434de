// State import and export at scale: a version 2 document of N flags (3 strategies and 2 tags each) imported into a
// fresh service, then exported again; time, document size and the service's peak RSS. Run by scripts/bench.ts.
import { rssMb, startBenchService } from './bench-service.js';

export interface StateFigures {
  flags: number;
  documentMb: number;
  importSeconds: number;
  exportSeconds: number;
  exportMb: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

export function documentOf(flags: number) {
  const teams = Array.from({ length: 20 }, (_, i) => ({ type: 'team', value: `team-${i}` }));
  return {
    version: 2,
    tagTypes: [{ name: 'team', description: 'Owning team' }, { name: 'area', description: 'Product area' }],
    tags: teams,
    features: Array.from({ length: flags }, (_, i) => {
      const name = `imported.flag-${String(i).padStart(5, '0')}`;
      return {
        name,
        project: 'default',
        description: `Imported flag ${i}`,
        tags: [teams[i % teams.length], { type: 'area', value: `area-${i % 11}` }],
        environments: [
          {
            name: 'development',
            enabled: i % 2 === 0,
            strategies: [
              { name: 'flexibleRollout', parameters: { rollout: String(i % 100), stickiness: 'userId', groupId: name }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web', 'ios'] }] },
              { name: 'remoteAddress', parameters: { IPs: '10.0.0.1,10.0.0.2' } },
              { name: 'default', constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: String(i) }], variants: [{ name: 'a', weightType: 'variable' }, { name: 'b', weightType: 'variable' }] },
            ],
          },
        ],
      };
    }),
  };
}

export async function benchState(port: number, flags: number): Promise<StateFigures> {
  const service = await startBenchService('flag_bench_state', port);
  try {
    const body = JSON.stringify(documentOf(flags));
    const rssBeforeMb = await rssMb(service.process.pid!);
    let started = performance.now();
    const imported = await fetch(`${service.base}/api/admin/state/import`, { method: 'POST', headers: { authorization: service.adminToken, 'content-type': 'application/json' }, body });
    if (imported.status !== 202) throw new Error(`import: ${imported.status} ${await imported.text()}`);
    const importSeconds = (performance.now() - started) / 1000;
    const peakRssMb = await rssMb(service.process.pid!, 'VmHWM');
    started = performance.now();
    const exported = await fetch(`${service.base}/api/admin/state/export?version=2`, { headers: { authorization: service.adminToken } });
    const exportBytes = (await exported.arrayBuffer()).byteLength;
    const exportSeconds = (performance.now() - started) / 1000;
    return { flags, documentMb: body.length / 1e6, importSeconds, exportSeconds, exportMb: exportBytes / 1e6, rssBeforeMb, peakRssMb };
  } finally {
    await service.close();
  }
}
