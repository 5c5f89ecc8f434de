// Where a strategy belongs: a flag of a project, in one of its environments.
import type { Db } from '../../db/connect.js';
import { requireActiveFeature, type FeatureRow } from './feature-view.js';
import { requireProject, requireProjectEnvironment } from '../lookups.js';

export interface Target {
  feature: FeatureRow;
  environment: string;
  defaultStickiness: string;
}

/** The active flag and the project's environment named by the path; 404 for whichever is missing. */
export async function resolveTarget(db: Db, params: { projectId: string; featureName: string; environment: string }): Promise<Target> {
  const project = await requireProject(db, params.projectId);
  const feature = await requireActiveFeature(db, params.projectId, params.featureName);
  await requireProjectEnvironment(db, params.projectId, params.environment);
  return { feature, environment: params.environment, defaultStickiness: project.defaultStickiness };
}
