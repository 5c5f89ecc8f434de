// Adding or editing a strategy of a flag in one environment, or of a release template's milestone (handed back to
// the template's form, not written): the strategy, its parameters (a gradual rollout's percentage, stickiness and
// group), its constraints and segments, and (on a flag) its variants.
import { Button, Group, Modal, MultiSelect, NumberInput, Select, Slider, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { constraintBody, constraintProblem, type Constraint } from '../../lib/constraints.js';
import { strategyKind } from '../../lib/strategy-words.js';
import { variantsBody, variantsProblem } from '../../lib/variants.js';
import { useContextFields, useSegments, useStrategies } from '../../queries';
import { confirmDone } from '../confirm-done';
import { ConstraintEditor } from './constraint-editor';
import type { FlagWrite } from './flag-writes';
import { StrategyVariantsEditor, type StrategyVariant } from './strategy-variants';

type FeatureStrategy = components['schemas']['FeatureStrategy'];
/** A strategy as the form edits it; `title` undefined when it has none; `variants` only on a flag. */
export type StrategyFields = Pick<FeatureStrategy, 'name' | 'title' | 'disabled' | 'parameters' | 'constraints' | 'segments'> & { variants?: StrategyVariant[] };
type Definition = components['schemas']['Strategy'];

interface Target {
  project: string;
  feature: string;
  environment: string;
}

interface Draft {
  name: string;
  title: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  segments: string[];
  variants: StrategyVariant[];
}

const draftOf = (strategy: StrategyFields | undefined, groupId: string | undefined): Draft =>
  strategy
    ? {
        name: strategy.name,
        title: strategy.title ?? '',
        disabled: strategy.disabled,
        parameters: { ...strategy.parameters },
        constraints: strategy.constraints,
        segments: strategy.segments.map(String),
        variants: strategy.variants ?? [],
      }
    : { name: 'flexibleRollout', title: '', disabled: false, parameters: rolloutDefaults(groupId), constraints: [], segments: [], variants: [] };

const rolloutDefaults = (groupId: string | undefined): Record<string, string> => ({ rollout: '100', stickiness: 'default', ...(groupId ? { groupId } : {}) });

type Props = { opened: boolean; onClose: () => void } & (
  | { target: Target; strategy?: FeatureStrategy; write: FlagWrite; /** Changes go into a change request: nothing is said done. */ proposing?: boolean }
  | { milestone: string; strategy?: StrategyFields; onSave: (fields: StrategyFields) => void }
);

export function StrategyForm(props: Props) {
  const { strategy, opened, onClose } = props;
  const target = 'target' in props ? props.target : undefined;
  const [draft, setDraft] = useState(() => draftOf(strategy, target?.feature));
  const strategies = useStrategies();
  const segments = useSegments();
  const queryClient = useQueryClient();
  const definition = strategies.data?.find((s) => s.name === draft.name);
  const problems = [...draft.constraints.map(constraintProblem), target ? variantsProblem(draft.variants) : undefined].filter(Boolean);

  const writeToFlag = (target: Target, write: FlagWrite, fields: StrategyFields) => {
    const body = { ...fields, title: fields.title ?? null };
    const path = { projectId: target.project, featureName: target.feature, environment: target.environment };
    const id = strategy && 'id' in strategy ? strategy.id : undefined;
    return id
      ? write(
          () => ok(api.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}', { params: { path: { ...path, strategyId: id } }, body })),
          { action: 'updateStrategy', payload: { ...body, id } },
        )
      : write(() => ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', { params: { path }, body })), { action: 'addStrategy', payload: body });
  };

  const save = useMutation({
    mutationFn: async () => {
      const parameters = Object.fromEntries(Object.entries(draft.parameters).filter(([name, value]) => target || name !== 'groupId' || value !== ''));
      const fields: StrategyFields = {
        name: draft.name,
        title: draft.title.trim() || undefined,
        disabled: draft.disabled,
        parameters,
        constraints: draft.constraints.map(constraintBody),
        segments: draft.segments.map(Number),
      };
      if ('target' in props) {
        // The variants keep a context where the rollout put it: they stick by the rollout's stickiness.
        const stickiness = parameters.stickiness || 'default';
        fields.variants = variantsBody(draft.variants.map((v) => ({ ...v, stickiness }))).map(({ name, weight, weightType, stickiness, payload }) => ({
          name,
          weight,
          weightType,
          stickiness,
          ...(payload && { payload }),
        }));
        await writeToFlag(props.target, props.write, fields);
        if (!props.proposing) {
          const label = fields.title ?? strategyKind(fields.name, strategies.data);
          confirmDone(strategy ? `Strategy ${label} saved in ${props.target.environment}.` : `Strategy ${label} added to ${props.target.environment}.`);
        }
        await queryClient.invalidateQueries({ queryKey: ['flag', props.target.project, props.target.feature] });
        await queryClient.invalidateQueries({ queryKey: ['flags'] });
      } else props.onSave(fields);
    },
    onSuccess: onClose,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Inside a release template's dialog, the submit would reach the template's form too (React events cross portals).
    event.stopPropagation();
    if (problems.length === 0) save.mutate();
  };

  const choose = (name: string | null) => {
    if (!name) return;
    setDraft((d) => ({ ...d, name, parameters: name === 'flexibleRollout' ? rolloutDefaults(target?.feature) : {} }));
  };

  return (
    <Modal opened={opened} onClose={onClose} size="56rem" title={`${strategy ? 'Edit' : 'Add'} a strategy ${'target' in props ? `in ${props.target.environment}` : `of the milestone ${props.milestone}`}`}>
      <form onSubmit={submit}>
        <Stack>
          <Group grow align="flex-start">
            <Select
              label="Strategy"
              data={(strategies.data ?? []).filter((s) => !s.deprecated || s.name === draft.name).map((s) => ({ value: s.name, label: strategyKind(s.name, strategies.data) }))}
              value={draft.name}
              onChange={choose}
              allowDeselect={false}
              disabled={Boolean(target && strategy)}
            />
            <TextInput label="Title" description="Optional, shown instead of the strategy's name" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })} />
          </Group>
          {definition && <Parameters definition={definition} parameters={draft.parameters} onChange={(parameters) => setDraft({ ...draft, parameters })} />}
          <div>
            <Text fw={600} size="sm" mb={4}>
              Constraints
            </Text>
            <ConstraintEditor constraints={draft.constraints} onChange={(constraints) => setDraft({ ...draft, constraints })} />
          </div>
          {(segments.data?.length ?? 0) > 0 && (
            <MultiSelect
              label="Segments"
              data={(segments.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
              value={draft.segments}
              onChange={(segmentIds) => setDraft({ ...draft, segments: segmentIds })}
            />
          )}
          {target && <StrategyVariantsEditor variants={draft.variants} onChange={(variants) => setDraft({ ...draft, variants })} />}
          <Switch label="Active" checked={!draft.disabled} onChange={(e) => setDraft({ ...draft, disabled: !e.currentTarget.checked })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={problems.length > 0}>
              Save strategy
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Parameters({ definition, parameters, onChange }: { definition: Definition; parameters: Record<string, string>; onChange: (p: Record<string, string>) => void }) {
  const fields = useContextFields();
  const set = (name: string, value: string) => onChange({ ...parameters, [name]: value });
  if (definition.name === 'flexibleRollout') {
    const rollout = Number(parameters.rollout ?? 100);
    const stickiness = ['default', 'userId', 'sessionId', 'random', ...(fields.data ?? []).filter((f) => f.stickiness).map((f) => f.name)];
    return (
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Rollout: {rollout} %
        </Text>
        <Group align="center">
          <Slider thumbLabel="Rollout" value={rollout} onChange={(v) => set('rollout', String(v))} min={0} max={100} step={1} style={{ flex: 1 }} label={(v) => `${v} %`} />
          <NumberInput aria-label="Rollout percentage" value={rollout} onChange={(v) => set('rollout', String(Number(v) || 0))} min={0} max={100} w={100} suffix=" %" />
        </Group>
        <Group grow>
          <Select label="Stickiness" data={[...new Set(stickiness)]} value={parameters.stickiness ?? 'default'} onChange={(v) => v && set('stickiness', v)} allowDeselect={false} />
          <TextInput label="Group id" value={parameters.groupId ?? ''} onChange={(e) => set('groupId', e.currentTarget.value)} />
        </Group>
      </Stack>
    );
  }
  if (definition.parameters.length === 0) return null;
  return (
    <Stack gap="xs">
      {definition.parameters.map((p) => {
        const label = `${p.name}${p.required ? ' (required)' : ''}`;
        const value = parameters[p.name] ?? '';
        switch (p.type) {
          case 'percentage':
          case 'number':
            return <NumberInput key={p.name} label={label} value={value === '' ? '' : Number(value)} onChange={(v) => set(p.name, String(v))} min={p.type === 'percentage' ? 0 : undefined} max={p.type === 'percentage' ? 100 : undefined} />;
          case 'list':
            return <TagsInput key={p.name} label={label} value={value ? value.split(',').map((v) => v.trim()).filter(Boolean) : []} onChange={(v) => set(p.name, v.join(','))} acceptValueOnBlur />;
          case 'boolean':
            return <Switch key={p.name} label={label} checked={value === 'true'} onChange={(e) => set(p.name, String(e.currentTarget.checked))} />;
          default:
            return <TextInput key={p.name} label={label} value={value} onChange={(e) => set(p.name, e.currentTarget.value)} />;
        }
      })}
    </Stack>
  );
}
