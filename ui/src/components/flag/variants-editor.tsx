// A flag's variants in one environment: names, fixed or shared weights (balanced as one types, as the service
// will store them), stickiness and payloads.
import { Alert, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { balanceVariants, percent, variantsBody, variantsProblem, type Variant } from '../../lib/variants.js';
import { useSession } from '../../session';
import { confirmDone } from '../confirm-done';
import { Empty } from '../feedback';
import { useFlagWrite } from './flag-writes';
import { VariantRow } from './variant-row';
import { WeightBar } from './weight-bar';

type FeatureEnvironment = components['schemas']['FeatureEnvironment'];

export function VariantsEditor({ project, feature, environments }: { project: string; feature: string; environments: FeatureEnvironment[] }) {
  const [environment, setEnvironment] = useState(environments[0]?.name ?? '');
  const current = environments.find((e) => e.name === environment);
  return (
    <Stack>
      <SegmentedControl aria-label="Environment" data={environments.map((e) => e.name)} value={environment} onChange={setEnvironment} w="fit-content" />
      {current && <EnvironmentVariants key={current.name} project={project} feature={feature} environment={current} />}
    </Stack>
  );
}

function EnvironmentVariants({ project, feature, environment }: { project: string; feature: string; environment: FeatureEnvironment }) {
  const session = useSession();
  const editable = session.can('setEnvironmentVariants', { project, environment: environment.name });
  const [variants, setVariants] = useState<Variant[]>(environment.variants);
  useEffect(() => setVariants(environment.variants), [environment.variants]);
  const queryClient = useQueryClient();
  const balanced = balanceVariants(variants);
  const problem = variantsProblem(variants);
  const changed = JSON.stringify(variants) !== JSON.stringify(environment.variants);

  const { proposing, write } = useFlagWrite(project, feature, environment.name);
  const save = useMutation({
    mutationFn: () => {
      const body = variantsBody(variants);
      return write(
        () =>
          ok(
            api.PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
              params: { path: { projectId: project, featureName: feature, environment: environment.name } },
              body,
            }),
          ),
        { action: 'patchVariant', payload: { variants: body } },
      );
    },
    onSuccess: () => {
      // A proposal leaves the flag as it is: the editor shows it again.
      if (proposing) setVariants(environment.variants);
      else confirmDone(`Variants of ${feature} in ${environment.name} saved.`);
      return queryClient.invalidateQueries({ queryKey: ['flag', project, feature] });
    },
  });

  const set = (index: number, change: Partial<Variant>) => setVariants(variants.map((v, i) => (i === index ? { ...v, ...change } : v)));
  const add = () => setVariants([...variants, { name: `variant${variants.length + 1}`, weightType: 'variable', weight: 0, stickiness: 'default' }]);

  return (
    <Stack gap="xs">
      {variants.length === 0 && <Empty>No variants in {environment.name}.</Empty>}
      {variants.map((variant, index) => (
        <VariantRow
          key={index}
          variant={variant}
          label={`Variant ${index + 1}`}
          nameLabel="Name"
          balancedWeight={balanced[index]?.weight}
          editable={editable}
          onChange={(change) => set(index, change)}
          onRemove={() => setVariants(variants.filter((_, i) => i !== index))}
        />
      ))}
      {variants.length > 0 && (
        <Text size="sm">
          Weights: {balanced.map((v) => `${v.name} ${percent(v.weight ?? 0)}`).join(' · ')}
        </Text>
      )}
      {variants.length > 0 && !problem && <WeightBar variants={variants} label={`Variant weights in ${environment.name}`} />}
      {problem && (
        <Alert color="red" role="status">
          {problem}
        </Alert>
      )}
      {editable && (
        <Group>
          <Button variant="light" leftSection={<IconPlus size={14} />} onClick={add}>
            Add variant
          </Button>
          <Button onClick={() => save.mutate()} disabled={!changed || Boolean(problem)} loading={save.isPending}>
            Save variants
          </Button>
        </Group>
      )}
    </Stack>
  );
}
