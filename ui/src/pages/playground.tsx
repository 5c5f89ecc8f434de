import { Anchor, Badge, Button, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { flagPath } from '../paths';
import { useEnvironments } from '../queries';

type Context = components['schemas']['PlaygroundContext'];

/** `key=value` lines as context fields; blank lines and lines without `=` are left out. */
const fieldsOf = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.split('='))
      .filter((parts) => parts.length >= 2 && parts[0]!.trim())
      .map(([key, ...value]) => [key!.trim(), value.join('=').trim()]),
  );

/** `n` strategies, with the plural right. */
const strategies = (n: number) => `${n} ${n === 1 ? 'strategy' : 'strategies'}`;

/** Why the flag came out as it did, in a sentence. */
function why(f: components['schemas']['PlaygroundFeature']): string {
  if (!f.isEnabledInCurrentEnvironment) return 'off in this environment';
  if (f.hasUnsatisfiedDependency) return 'a dependency is not met';
  const n = f.strategies.data.length;
  const { result } = f.strategies;
  if (n === 0) return 'no strategies, so on for everyone';
  if (result === true) return n === 1 ? '1 strategy matched' : `one of ${strategies(n)} matched`;
  if (result === 'unknown') return `${strategies(n)}, none built in matched; a custom one might`;
  return n === 1 ? 'no strategy matched for this context' : `${strategies(n)}, none matched`;
}

export default function Playground() {
  const environments = useEnvironments();
  const [environment, setEnvironment] = useState<string | null>('development');
  const [appName, setAppName] = useState('playground');
  const [userId, setUserId] = useState('');
  const [more, setMore] = useState('');
  const evaluate = useMutation({
    mutationFn: () => {
      const context: Context = { appName, ...(userId && { userId }), ...fieldsOf(more) };
      return ok(api.POST('/api/admin/playground', { body: { environment: environment ?? 'development', projects: '*', context } }));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    evaluate.mutate();
  };
  return (
    <Page title="Playground" description="What SDKs would decide for a context, flag by flag, as they decide it.">
      <form onSubmit={submit}>
        <Stack gap="sm" maw={720}>
          <Group grow>
            <Select label="Environment" data={(environments.data ?? []).map((e) => e.name)} value={environment} onChange={setEnvironment} allowDeselect={false} />
            <TextInput label="appName" required value={appName} onChange={(e) => setAppName(e.currentTarget.value)} />
            <TextInput label="userId" value={userId} onChange={(e) => setUserId(e.currentTarget.value)} />
          </Group>
          <Textarea label="Other context fields" description="One per line: name=value" autosize minRows={2} value={more} onChange={(e) => setMore(e.currentTarget.value)} />
          <Group>
            <Button type="submit" loading={evaluate.isPending}>
              Evaluate
            </Button>
          </Group>
        </Stack>
      </form>
      {evaluate.data && (
        <ListTable
          label="Results"
          query={{ data: evaluate.data.features }}
          rowKey={(f) => f.name}
          empty="No flags."
          columns={[
            {
              label: 'Flag',
              cell: (f) => (
                <Anchor component={Link} to={flagPath(f.projectId, f.name)}>
                  {f.name}
                </Anchor>
              ),
            },
            {
              label: 'Result',
              cell: (f) => (
                <Badge color={f.isEnabled ? 'teal.9' : 'gray.7'} variant={f.isEnabled ? 'filled' : 'outline'}>
                  {f.isEnabled ? 'on' : 'off'}
                </Badge>
              ),
            },
            { label: 'Variant', cell: (f) => (f.variant.enabled ? f.variant.name : '') },
            { label: 'Why', cell: why },
          ]}
        />
      )}
    </Page>
  );
}
