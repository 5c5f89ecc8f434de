// A strategy's variants in its form: names, weights as percentages (fixed, or shared by the variable ones as the
// service will store them), payloads; the weight bar as it will read on the card, and what the service would refuse.
import { ActionIcon, Alert, Button, Checkbox, Group, NumberInput, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { components } from '../../../../generated/api.js';
import { balanceVariants, variantsProblem, weightOfPercent } from '../../lib/variants.js';
import { WeightBar } from './weight-bar';

export type StrategyVariant = components['schemas']['StrategyVariant'];
type PayloadType = NonNullable<StrategyVariant['payload']>['type'];

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
      {variants.map((variant, index) => {
        const fixed = variant.weightType === 'fix';
        return (
          <Paper key={index} withBorder p="sm" role="group" aria-label={`Strategy variant ${index + 1}`}>
            <Group align="flex-end" gap="sm">
              <TextInput label="Variant name" value={variant.name} onChange={(e) => set(index, { name: e.currentTarget.value })} w={170} />
              <NumberInput
                label="Weight"
                suffix=" %"
                decimalScale={1}
                min={0}
                max={100}
                value={(fixed ? (variant.weight ?? 0) : (balanced[index]?.weight ?? 0)) / 10}
                onChange={(v) => set(index, { weight: weightOfPercent(Number(v) || 0) })}
                disabled={!fixed}
                w={110}
              />
              <Checkbox
                label="Fixed weight"
                checked={fixed}
                onChange={(e) => set(index, { weightType: e.currentTarget.checked ? 'fix' : 'variable', weight: balanced[index]?.weight ?? 0 })}
                mb={8}
              />
              <Select
                label="Payload"
                data={['none', 'string', 'json', 'csv', 'number']}
                value={variant.payload?.type ?? 'none'}
                onChange={(type) => set(index, { payload: type && type !== 'none' ? { type: type as PayloadType, value: variant.payload?.value ?? '' } : undefined })}
                allowDeselect={false}
                w={110}
              />
              {variant.payload && (
                <TextInput
                  label="Payload value"
                  value={variant.payload.value}
                  onChange={(e) => set(index, { payload: { type: variant.payload!.type, value: e.currentTarget.value } })}
                  style={{ flex: 1, minWidth: 140 }}
                />
              )}
              <ActionIcon variant="subtle" color="red" aria-label={`Remove variant ${variant.name || index + 1}`} onClick={() => onChange(variants.filter((_, i) => i !== index))} mb={4}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Paper>
        );
      })}
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
