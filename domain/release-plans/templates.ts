// Milestones written for a template or a plan, each strategy checked as a flag's strategy would be.
import { ulid } from 'ulid';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import { strategyValues, type StrategyScope } from '../flags/strategy-values.js';

type Schemas = components['schemas'];
type MilestoneInput = Schemas['UpsertReleasePlanTemplate']['milestones'][number];
/** UpsertReleasePlanMilestoneStrategy as the request validator checked it (its anyOf of `name` or `strategyName` leaves the generated type unknown). */
type StrategyInput = Partial<Pick<Schemas['ReleasePlanMilestoneStrategy'], 'name' | 'strategyName' | 'title' | 'disabled' | 'constraints' | 'variants' | 'segments'>> &
  Pick<Schemas['CreateFeatureStrategy'], 'parameters'>;

/** A template's strategies may use any segment; a plan's are checked again for its flag. */
export const templateScope: StrategyScope = { featureName: null, project: null, defaultStickiness: 'default' };

/**
 * Writes the milestones, in the order given, for the template or plan. Ids are new, except those of `previous`
 * (the milestones being replaced), which are kept by position, so that an update that changes nothing shows none.
 */
export async function writeMilestones(tx: Db, definitionId: string, milestones: MilestoneInput[], scope: StrategyScope, previous: Schemas['ReleasePlanMilestone'][] = []) {
  for (const [i, milestone] of milestones.entries()) {
    const milestoneId = previous[i]?.id ?? ulid();
    await tx.insert(t.releasePlanMilestones).values({
      id: milestoneId,
      definitionId,
      name: milestone.name,
      sortOrder: i,
      transitionCondition: milestone.transitionCondition ?? null,
    });
    for (const [j, input] of ((milestone.strategies ?? []) as StrategyInput[]).entries()) {
      const { name = input.strategyName!, strategyName: _, disabled, ...fields } = input;
      const { columns, segmentIds } = await strategyValues(tx, scope, { ...fields, name }, `milestones[${i}].strategies[${j}].`);
      await tx.insert(t.releasePlanMilestoneStrategies).values({
        id: previous[i]?.strategies[j]?.id ?? ulid(),
        milestoneId,
        sortOrder: j,
        ...columns,
        disabled: disabled ?? null,
        segments: segmentIds,
      });
    }
  }
}
