// Release templates, a flag's release plans and impact metrics: each query, and each change with the answers it
// makes stale written next to it.
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useChange } from '../../queries';
import type { FlagWrite } from '../flag/flag-writes';

export type ReleasePlan = components['schemas']['ReleasePlan'];
export type Milestone = components['schemas']['ReleasePlanMilestone'];
export type Safeguard = components['schemas']['ReleasePlanSafeguard'];
export type UpsertSafeguard = components['schemas']['UpsertSafeguard'];
export type Template = components['schemas']['ReleasePlanTemplate'];
export type UpsertTemplate = components['schemas']['UpsertReleasePlanTemplate'];
export type TimeRange = components['schemas']['SafeguardImpactMetric']['timeRange'];
export type Aggregation = components['schemas']['ImpactAggregation'];

export const useTemplates = () => useQuery({ queryKey: ['release-templates'], queryFn: () => ok(api.GET('/api/admin/release-plan-templates')) });

export const useSaveTemplate = (template: Template | undefined) =>
  useChange(
    (body: UpsertTemplate) =>
      template
        ? ok(api.PUT('/api/admin/release-plan-templates/{templateId}', { params: { path: { templateId: template.id } }, body }))
        : ok(api.POST('/api/admin/release-plan-templates', { body })),
    ['release-templates'],
  );

export const useDeleteTemplate = () =>
  useChange((templateId: string) => ok(api.DELETE('/api/admin/release-plan-templates/{templateId}', { params: { path: { templateId } } })), ['release-templates']);

export const useImpactMetrics = () => useQuery({ queryKey: ['impact-metrics'], queryFn: () => ok(api.GET('/api/admin/impact-metrics')) });

/** A metric over a range, read again every minute while shown. */
export const useMetricSeries = (metricName: string, range: TimeRange, aggregationMode: Aggregation, labelSelectors: Record<string, string[]>) =>
  useQuery({
    queryKey: ['impact-metric', metricName, range, aggregationMode, labelSelectors],
    queryFn: () =>
      ok(api.GET('/api/admin/impact-metrics/{metricName}', { params: { path: { metricName }, query: { range, aggregationMode, labels: JSON.stringify(labelSelectors) } } })),
    refetchInterval: 60_000,
  });

/** A flag's plans (one per environment at most), read again every 10 s while one runs: milestones advance and safeguards fire by themselves. */
export const useReleasePlans = (project: string, feature: string) =>
  useQuery({
    queryKey: ['release-plans', project, feature],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/features/{featureName}/release-plans', { params: { path: { projectId: project, featureName: feature } } })),
    refetchInterval: (query) => (query.state.data?.some((plan) => plan.activeMilestoneId) ? 10_000 : false),
  });

/** The changes of one environment's plan, each reading the plan and the flag again; a milestone's start goes through `write` (proposed where change requests are required). */
export function usePlanChanges(project: string, feature: string, environment: string, write?: FlagWrite) {
  const path = { projectId: project, featureName: feature, environment };
  const changed = [['release-plans', project, feature], ['flag', project, feature], ['flags']];
  const plan = (planId: string) => ({ params: { path: { ...path, planId } } });
  const base = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans' as const;
  return {
    add: useChange((templateId: string) => ok(api.POST(base, { params: { path }, body: { templateId } })), ...changed),
    remove: useChange(
      ({ planId, keepStrategies }: { planId: string; keepStrategies: boolean }) =>
        ok(api.DELETE(`${base}/{planId}`, { params: { path: { ...path, planId }, query: { keepStrategies } } })),
      ...changed,
    ),
    start: useChange(
      ({ planId, milestoneId }: { planId: string; milestoneId: string }) => {
        const direct = () => ok(api.POST(`${base}/{planId}/milestones/{milestoneId}/start`, { params: { path: { ...path, planId, milestoneId } } }));
        return write ? write(direct, { action: 'startMilestone', payload: { planId, milestoneId } }) : direct();
      },
      ...changed,
    ),
    pause: useChange((planId: string) => ok(api.POST(`${base}/{planId}/pause`, plan(planId))), ...changed),
    resume: useChange((planId: string) => ok(api.POST(`${base}/{planId}/resume`, plan(planId))), ...changed),
    saveSafeguard: useChange(
      ({ planId, safeguardId, body }: { planId: string; safeguardId?: string; body: UpsertSafeguard }) =>
        safeguardId
          ? ok(api.PUT(`${base}/{planId}/safeguards/{safeguardId}`, { params: { path: { ...path, planId, safeguardId } }, body }))
          : ok(api.POST(`${base}/{planId}/safeguards`, { params: { path: { ...path, planId } }, body })),
      ...changed,
    ),
    deleteSafeguard: useChange(
      ({ planId, safeguardId }: { planId: string; safeguardId: string }) =>
        ok(api.DELETE(`${base}/{planId}/safeguards/{safeguardId}`, { params: { path: { ...path, planId, safeguardId } } })),
      ...changed,
    ),
  };
}
