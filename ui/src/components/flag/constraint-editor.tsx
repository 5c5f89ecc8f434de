// Constraints of a strategy or segment: a row each, whose value input follows its operator (a list of values,
// a number, a date and time, a version or a regular expression), with what the service would refuse said inline.
import { ActionIcon, Button, Checkbox, Group, MultiSelect, Paper, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  constraintProblem,
  isoToLocalInput,
  localInputToIso,
  operatorGroups,
  takesCaseInsensitive,
  valueInputFor,
  withOperator,
  type Constraint,
  type Operator,
} from '../../lib/constraints.js';
import { useContextFields } from '../../queries';

const operatorData = operatorGroups.map((g) => ({ group: g.group, items: g.operators.map((o) => ({ value: o.value, label: `${o.label} (${o.value})` })) }));

export function ConstraintEditor({ constraints, onChange }: { constraints: Constraint[]; onChange: (constraints: Constraint[]) => void }) {
  const fields = useContextFields();
  const set = (index: number, constraint: Constraint) => onChange(constraints.map((c, i) => (i === index ? constraint : c)));
  const add = () => onChange([...constraints, { contextName: '', operator: 'IN', values: [], inverted: false }]);
  return (
    <Stack gap="xs">
      {constraints.map((constraint, index) => {
        const field = fields.data?.find((f) => f.name === constraint.contextName);
        const problem = constraintProblem(constraint);
        return (
          <Paper key={index} withBorder p="sm" aria-label={`Constraint ${index + 1}`} role="group">
            <Group align="flex-end" gap="sm">
              <Select
                label="Context field"
                searchable
                data={(fields.data ?? []).map((f) => f.name)}
                value={constraint.contextName || null}
                onChange={(contextName) => set(index, { ...constraint, contextName: contextName ?? '' })}
                w={170}
              />
              <Select
                label="Operator"
                data={operatorData}
                value={constraint.operator}
                onChange={(operator) => operator && set(index, withOperator(constraint, operator as Operator))}
                allowDeselect={false}
                w={250}
              />
              <ValueInput constraint={constraint} legalValues={field?.legalValues.map((v) => v.value) ?? []} onChange={(c) => set(index, c)} />
              <ActionIcon variant="subtle" color="red" aria-label={`Remove constraint ${index + 1}`} onClick={() => onChange(constraints.filter((_, i) => i !== index))} mb={4}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <Group gap="md" mt="xs">
              <Checkbox label="Negate (not)" checked={constraint.inverted ?? false} onChange={(e) => set(index, { ...constraint, inverted: e.currentTarget.checked })} />
              {takesCaseInsensitive(constraint.operator) && (
                <Checkbox
                  label="Ignore case"
                  checked={constraint.caseInsensitive ?? false}
                  onChange={(e) => set(index, { ...constraint, caseInsensitive: e.currentTarget.checked })}
                />
              )}
              {problem && (
                <Text size="sm" c="red.8" role="status">
                  {problem}
                </Text>
              )}
            </Group>
          </Paper>
        );
      })}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={add}>
          Add constraint
        </Button>
      </Group>
    </Stack>
  );
}

function ValueInput({ constraint, legalValues, onChange }: { constraint: Constraint; legalValues: string[]; onChange: (c: Constraint) => void }) {
  const input = valueInputFor(constraint.operator);
  const single = (value: string) => onChange({ ...constraint, value });
  switch (input.kind) {
    case 'list':
      return legalValues.length > 0 && !constraint.operator.startsWith('STR_') ? (
        <MultiSelect label="Values" data={legalValues} value={constraint.values ?? []} onChange={(values) => onChange({ ...constraint, values })} searchable w={280} />
      ) : (
        <TagsInput
          label="Values"
          description="Enter or comma after each"
          value={constraint.values ?? []}
          onChange={(values) => onChange({ ...constraint, values })}
          w={280}
          acceptValueOnBlur
        />
      );
    case 'number':
      return <TextInput label="Number" inputMode="decimal" value={constraint.value ?? ''} onChange={(e) => single(e.currentTarget.value)} w={160} />;
    case 'date':
      return (
        <TextInput
          label="Date and time"
          description="Your local time"
          type="datetime-local"
          value={isoToLocalInput(constraint.value ?? '')}
          onChange={(e) => single(localInputToIso(e.currentTarget.value))}
          w={230}
        />
      );
    case 'semver':
      return <TextInput label="Version" placeholder="1.2.3" value={constraint.value ?? ''} onChange={(e) => single(e.currentTarget.value)} w={160} />;
    case 'regex':
      return <TextInput label="Regular expression" placeholder="^beta-" value={constraint.value ?? ''} onChange={(e) => single(e.currentTarget.value)} w={240} />;
  }
}
