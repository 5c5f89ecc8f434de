// A strategy's variants in its form: names, weights as percentages (fixed, or shared by the variable ones as the
// service will store them), payloads; the weight bar as it will read on the card, and what the service would refuse.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { components } from '../../../../generated/api.js';
import { balanceVariants, variantsProblem } from '../../lib/variants.js';
import { VariantRow } from './variant-row';
import { WeightBar } from './weight-bar';

export type StrategyVariant = components['schemas']['StrategyVariant'];

export function StrategyVariantsEditor({ variants, onChange }: { variants: StrategyVariant[]; onChange: (variants: StrategyVariant[]) => void }) {
  const balanced = balanceVariants(variants);
  const problem = variantsProblem(variants);
  const set = (index: number, change: Partial<StrategyVariant>) => onChange(variants.map((v, i) => (i === index ? { ...v, ...change } : v)));
  const free = (n: number): string => (variants.some((v) => v.name === `variant${n}`) ? free(n + 1) : `variant${n}`);
  const add = () => onChange([...variants, { name: free(variants.length + 1), weightType: 'variable', weight: 0 }]);
  return (
    <Stack gap="xs" role="group" aria-labelledby="strategy-variants-heading">
      <Text fw={600} size="sm" id="strategy-variants-heading">
        Variants
      </Text>
      {variants.length === 0 && (
        <Text size="sm" c="gray.7">
          None: where this strategy applies, SDKs give the flag&apos;s own variants.
        </Text>
      )}
      {variants.map((variant, index) => (
        <VariantRow
          key={index}
          variant={variant}
          label={`Strategy variant ${index + 1}`}
          nameLabel="Variant name"
          balancedWeight={balanced[index]?.weight}
          onChange={(change) => set(index, change)}
          onRemove={() => onChange(variants.filter((_, i) => i !== index))}
        />
      ))}
      {variants.length > 0 && !problem && <WeightBar variants={variants} label="Variant weights" />}
      {problem && (
        <Alert color="red" role="status">
          {problem}
        </Alert>
      )}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={add}>
          Add variant
        </Button>
      </Group>
    </Stack>
  );
}
