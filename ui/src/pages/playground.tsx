import { Button, Group, MultiSelect, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type CSSProperties, type FormEvent } from 'react';
import { api, ok } from '../api';
import { Page } from '../components/page';
import { advancedContext, contextOfForm, formOfContext, jsonOfContext, parseContext, type Context, type ContextForm } from '../components/playground/context';
import { Results } from '../components/playground/results';
import { useEnvironments } from '../queries';

type Mode = 'form' | 'json';

/** An error's red dark enough to read at 4.5:1 on white (Mantine's own red 6 reads at 3.3:1). */
const readableError = { '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties;

export default function Playground() {
  const environments = useEnvironments();
  const names = (environments.data ?? []).map((e) => e.name);
  /** The environments chosen; until the user chooses, development (or the first there is). */
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = chosen ?? (names.length === 0 || names.includes('development') ? ['development'] : names.slice(0, 1));
  const [environmentsError, setEnvironmentsError] = useState<string>();
  const [mode, setMode] = useState<Mode>('form');
  const [form, setForm] = useState<ContextForm>({ appName: 'playground', userId: '', more: '' });
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState<string>();
  const evaluate = useMutation({
    mutationFn: ({ environments, context }: { environments: string[]; context: Context }) =>
      ok(api.POST('/api/admin/playground/advanced', { body: { environments, projects: '*', context: advancedContext(context) } })),
  });
  const field = (name: keyof ContextForm) => (value: string) => setForm((f) => ({ ...f, [name]: value }));

  /** The context as entered, or undefined when the JSON is wrong (said on its field). */
  const context = (): Context | undefined => {
    if (mode === 'form') return contextOfForm(form);
    const parsed = parseContext(json);
    if ('problem' in parsed) {
      setJsonError(parsed.problem);
      return undefined;
    }
    return parsed.context;
  };

  const switchTo = (next: string) => {
    if (next === mode) return;
    if (next === 'json') {
      setJson(jsonOfContext(contextOfForm(form)));
      setJsonError(undefined);
      setMode('json');
      return;
    }
    const parsed = parseContext(json);
    if ('problem' in parsed) {
      setJsonError(parsed.problem);
      return;
    }
    setForm(formOfContext(parsed.context));
    setMode('form');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (selected.length === 0) {
      setEnvironmentsError('Choose at least one environment.');
      return;
    }
    const entered = context();
    if (entered) evaluate.mutate({ environments: selected, context: entered });
  };

  return (
    <Page title="Playground" description="What SDKs would decide for a context, flag by flag, as they decide it, and why.">
      <form onSubmit={submit}>
        <Stack gap="sm" maw={720}>
          <MultiSelect
            label="Environments"
            description="Several at once show a column per environment."
            data={names}
            searchable
            value={selected}
            onChange={(value) => {
              setChosen(value);
              setEnvironmentsError(undefined);
            }}
            error={environmentsError}
            style={readableError}
          />
          <SegmentedControl
            aria-label="Enter the context as"
            value={mode}
            onChange={switchTo}
            data={[
              { value: 'form', label: 'Form' },
              { value: 'json', label: 'JSON' },
            ]}
            w={200}
          />
          {mode === 'form' ? (
            <>
              <Group grow align="flex-start">
                <TextInput label="appName" required value={form.appName} onChange={(e) => field('appName')(e.currentTarget.value)} />
                <TextInput label="userId" value={form.userId} onChange={(e) => field('userId')(e.currentTarget.value)} />
              </Group>
              <Textarea
                label="Other context fields"
                description="One per line: name=value"
                autosize
                minRows={2}
                value={form.more}
                onChange={(e) => field('more')(e.currentTarget.value)}
              />
            </>
          ) : (
            <Textarea
              label="Context (JSON)"
              description='An object, as an SDK holds it: {"appName": "web", "userId": "alice", "properties": {"plan": "pro"}}'
              autosize
              minRows={6}
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              value={json}
              onChange={(e) => {
                setJson(e.currentTarget.value);
                setJsonError(undefined);
              }}
              error={jsonError}
              style={readableError}
            />
          )}
          <Group>
            <Button type="submit" loading={evaluate.isPending}>
              Evaluate
            </Button>
          </Group>
        </Stack>
      </form>
      {evaluate.data && <Results key={evaluate.submittedAt} response={evaluate.data} />}
    </Page>
  );
}
