// One variant in an editor, as the flag's variants and a strategy's variants both edit it: its name, its weight as a
// percentage (typed when fixed, else the share the service will store), whether the weight is fixed, its payload, and
// a Remove button.
import { ActionIcon, Checkbox, Group, NumberInput, Paper, Select, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { weightOfPercent, type Variant } from '../../lib/variants.js';

type PayloadType = NonNullable<Variant['payload']>['type'];

export function VariantRow({
  variant,
  label,
  nameLabel,
  balancedWeight,
  editable = true,
  onChange,
  onRemove,
}: {
  variant: Variant;
  /** The row's name for screen readers: "Variant 2". */
  label: string;
  nameLabel: string;
  /** The weight the service will store for it, out of 1000 (shown while the weight is variable). */
  balancedWeight: number | undefined;
  editable?: boolean;
  onChange: (change: Partial<Variant>) => void;
  onRemove: () => void;
}) {
  const fixed = variant.weightType === 'fix';
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Group align="flex-end" gap="sm">
        <TextInput label={nameLabel} value={variant.name} onChange={(e) => onChange({ name: e.currentTarget.value })} disabled={!editable} w={180} />
        <NumberInput
          label="Weight"
          suffix=" %"
          decimalScale={1}
          min={0}
          max={100}
          value={(fixed ? (variant.weight ?? 0) : (balancedWeight ?? 0)) / 10}
          onChange={(v) => onChange({ weight: weightOfPercent(Number(v) || 0) })}
          disabled={!editable || !fixed}
          w={110}
        />
        <Checkbox
          label="Fixed weight"
          checked={fixed}
          disabled={!editable}
          onChange={(e) => onChange({ weightType: e.currentTarget.checked ? 'fix' : 'variable', weight: balancedWeight ?? 0 })}
          mb={8}
        />
        <Select
          label="Payload"
          data={['none', 'string', 'json', 'csv', 'number']}
          value={variant.payload?.type ?? 'none'}
          onChange={(type) => onChange({ payload: type && type !== 'none' ? { type: type as PayloadType, value: variant.payload?.value ?? '' } : undefined })}
          allowDeselect={false}
          disabled={!editable}
          w={110}
        />
        {variant.payload && (
          <TextInput
            label="Payload value"
            value={variant.payload.value}
            onChange={(e) => onChange({ payload: { type: variant.payload!.type, value: e.currentTarget.value } })}
            disabled={!editable}
            style={{ flex: 1, minWidth: 140 }}
          />
        )}
        {editable && (
          <ActionIcon variant="subtle" color="red" aria-label={`Remove variant ${variant.name || label}`} onClick={onRemove} mb={4}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
