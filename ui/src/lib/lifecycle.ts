import type { components } from '../../../generated/api.js';

type CurrentLifecycleStage = components['schemas']['CurrentLifecycleStage'];

/** Where a flag stands in its lifecycle, with how it was completed: `completed: kept (blue)`. */
export function describeStage(lifecycle: CurrentLifecycleStage): string {
  if (lifecycle.stage !== 'completed' || !lifecycle.status) return lifecycle.stage;
  return `completed: ${lifecycle.status}${lifecycle.statusValue ? ` (${lifecycle.statusValue})` : ''}`;
}
