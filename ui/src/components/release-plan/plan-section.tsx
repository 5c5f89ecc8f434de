// One environment's release plan on a flag's page: add one from a template, or the plan's milestones, its pause
// and resume, its removal, and its safeguards.
import { Button, Group, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmButton, QueryError } from '../feedback';
import type { FlagWrite } from '../flag/flag-writes';
import { useSession } from '../../session';
import { Milestones } from './milestones';
import { usePlanChanges, useReleasePlans, useTemplates, type ReleasePlan } from './queries';
import { Safeguards } from './safeguards';
import { confirmDone } from '../confirm-done';

interface Target {
  project: string;
  feature: string;
  environment: string;
  /** Whether changes here are proposed as change requests (a milestone's start can be; a plan's removal cannot). */
  proposing: boolean;
  write: FlagWrite;
}

export function ReleasePlanSection(target: Target) {
  const plans = useReleasePlans(target.project, target.feature);
  const plan = plans.data?.find((p) => p.environment === target.environment);
  return (
    <Stack gap="xs" component="section" aria-label={`Release plan in ${target.environment}`} mt="md">
      <Title order={4}>Release plan{plan ? `: ${plan.name}` : ''}</Title>
      {plans.isError && <QueryError error={plans.error} />}
      {plans.isSuccess && (plan ? <PlanView target={target} plan={plan} /> : <AddPlan target={target} />)}
    </Stack>
  );
}

function AddPlan({ target }: { target: Target }) {
  const session = useSession();
  const templates = useTemplates();
  const { add } = usePlanChanges(target.project, target.feature, target.environment);
  const [templateId, setTemplateId] = useState<string | null>(null);
  if (!session.can('addReleasePlan', { project: target.project, environment: target.environment })) return <Text size="sm">No release plan.</Text>;
  if (templates.data?.length === 0) return <Text size="sm">No release plan. Make a release template first to release the flag in milestones.</Text>;
  return (
    <Group align="flex-end">
      <Select
        label={`Release template for ${target.environment}`}
        placeholder="Choose a template"
        data={(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
        value={templateId}
        onChange={setTemplateId}
        size="xs"
        flex={1}
      />
      <Button size="xs" disabled={!templateId} loading={add.isPending} onClick={() => templateId && add.mutate(templateId, { onSuccess: () => confirmDone(`Release plan added in ${target.environment}.`) })}>
        Add release plan
      </Button>
    </Group>
  );
}

function PlanView({ target, plan }: { target: Target; plan: ReleasePlan }) {
  const session = useSession();
  const scope = { project: target.project, environment: target.environment };
  const changes = usePlanChanges(target.project, target.feature, target.environment, target.write);
  const [keepStrategies, setKeepStrategies] = useState(true);
  const active = plan.milestones.find((m) => m.id === plan.activeMilestoneId);
  const paused = Boolean(active?.pausedAt);
  const mayStart = session.can('startReleasePlanMilestone', scope);
  const mayUpdate = session.can('pauseReleasePlan', scope);
  return (
    <Stack gap="sm">
      {plan.description && <Text size="sm">{plan.description}</Text>}
      {!active && <Text size="sm">No milestone runs yet: start the first to begin the release.</Text>}
      <Milestones plan={plan} onStart={
          mayStart
            ? async (m) => {
                await changes.start.mutateAsync({ planId: plan.id, milestoneId: m.id });
                // A proposal says so itself (flag-writes).
                if (!target.proposing) confirmDone(`Milestone ${m.name} started.`);
              }
            : undefined
        } />
      <Group gap="xs">
        {mayUpdate && active && !paused && (
          <Button size="xs" variant="default" leftSection={<IconPlayerPause size={14} />} loading={changes.pause.isPending} onClick={() => changes.pause.mutate(plan.id, { onSuccess: () => confirmDone('Release plan paused.') })}>
            Pause
          </Button>
        )}
        {session.can('resumeReleasePlan', scope) && paused && (
          <Button size="xs" leftSection={<IconPlayerPlay size={14} />} loading={changes.resume.isPending} onClick={() => changes.resume.mutate(plan.id, { onSuccess: () => confirmDone('Release plan resumed.') })}>
            Resume
          </Button>
        )}
        {session.can('deleteReleasePlan', scope) && !target.proposing && (
          <ConfirmButton label="Remove plan" size="xs" title={`Remove the release plan from ${target.environment}?`} confirmLabel="Remove" done={`Release plan removed from ${target.environment}.`} onConfirm={() => changes.remove.mutateAsync({ planId: plan.id, keepStrategies })}>
            <Stack gap="sm">
              <Text size="sm">The milestones and safeguards are removed.</Text>
              <Switch
                label="Keep the active milestone's strategies on the flag"
                checked={keepStrategies}
                onChange={(e) => setKeepStrategies(e.currentTarget.checked)}
                disabled={!active}
              />
            </Stack>
          </ConfirmButton>
        )}
      </Group>
      <Safeguards
        plan={plan}
        mayChange={session.can('createReleasePlanSafeguard', scope)}
        onSave={(safeguardId, body) => changes.saveSafeguard.mutateAsync({ planId: plan.id, safeguardId, body })}
        onDelete={(safeguardId) => changes.deleteSafeguard.mutateAsync({ planId: plan.id, safeguardId })}
      />
    </Stack>
  );
}
