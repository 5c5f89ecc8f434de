import { Badge, Button, Group, Modal, MultiSelect, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { ConfirmButton } from '../components/feedback';
import { FormDialog, NewButton, when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useChange } from '../queries';
import { useSession } from '../session';
import { confirmDone } from '../components/confirm-done';

type Addon = components['schemas']['Addon'];
type Provider = components['schemas']['AddonProvider'];
type EventType = components['schemas']['EventType'];

const addonsQuery = { queryKey: ['addons'], queryFn: () => ok(api.GET('/api/admin/addons')) };

export default function Integrations() {
  const session = useSession();
  const addons = useQuery({ ...addonsQuery, select: (answer) => answer.addons });
  const providers = useQuery({ ...addonsQuery, select: (answer) => answer.providers });
  const [log, setLog] = useState<Addon | null>(null);
  const toggle = useChange(
    (addon: Addon) =>
      ok(
        api.PUT('/api/admin/addons/{id}', {
          params: { path: { id: addon.id } },
          // Sensitive parameters come back masked; sent masked, the service keeps what it stored.
          body: { provider: addon.provider, description: addon.description, enabled: !addon.enabled, parameters: addon.parameters, events: addon.events, projects: addon.projects, environments: addon.environments },
        }),
      ),
    ['addons'],
  );
  const remove = useChange((id: number) => ok(api.DELETE('/api/admin/addons/{id}', { params: { path: { id } } })), ['addons']);
  const providerName = (name: string) => providers.data?.find((p) => p.name === name)?.displayName ?? name;
  return (
    <Page
      title="Integrations"
      description="Flag changes sent to webhooks, Slack, Teams or Datadog."
      actions={<NewButton label="New integration" allowed={session.can('createAddonAdmin')} dialog={(close) => <CreateIntegration providers={providers.data ?? []} onClose={close} />} />}
    >
      <ListTable
        label="Integrations"
        query={addons}
        rowKey={(a) => a.id}
        empty="No integrations yet — create one to send flag changes to Slack, Teams, Datadog or a webhook."
        columns={[
          { label: 'Provider', cell: (a) => <strong>{providerName(a.provider)}</strong> },
          { label: 'Description', cell: (a) => a.description },
          { label: 'Events', cell: (a) => `${a.events.length} types` },
          {
            label: 'Enabled',
            cell: (a) =>
              session.can('updateAddonAdmin') ? (
                <Switch aria-label={`Integration ${a.id} enabled`} checked={a.enabled} onChange={() => toggle.mutate(a, { onSuccess: () => confirmDone(`Integration ${a.id} ${a.enabled ? 'disabled' : 'enabled'}.`) })} />
              ) : a.enabled ? (
                'yes'
              ) : (
                'no'
              ),
          },
          {
            label: 'Actions',
            cell: (a) => (
              <Group gap="xs">
                {session.can('getAddonEvents') && (
                  <Button size="xs" variant="default" onClick={() => setLog(a)}>
                    Deliveries
                  </Button>
                )}
                {session.can('deleteAddon') && (
                  <ConfirmButton label="Delete" size="xs" title="Delete this integration?" done="Integration deleted." onConfirm={() => remove.mutateAsync(a.id)}>
                    What it still had to send is dropped.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
      {log && <Deliveries addon={log} onClose={() => setLog(null)} />}
    </Page>
  );
}

function Deliveries({ addon, onClose }: { addon: Addon; onClose: () => void }) {
  const deliveries = useQuery({
    queryKey: ['addons', addon.id, 'events'],
    queryFn: async () => (await ok(api.GET('/api/admin/addons/{id}/events', { params: { path: { id: addon.id } } }))).integrationEvents,
  });
  return (
    <Modal opened onClose={onClose} title="Deliveries" size="xl">
      <ListTable
        label="Deliveries"
        query={deliveries}
        rowKey={(d) => d.id}
        empty="Nothing sent yet."
        columns={[
          { label: 'When', cell: (d) => when(d.createdAt) },
          { label: 'Event', cell: (d) => d.event.type },
          {
            label: 'Result',
            cell: (d) => (
              <Badge color={d.state === 'success' ? 'teal' : 'red'} variant="light" tt="none">
                {d.state}
              </Badge>
            ),
          },
          { label: 'Details', cell: (d) => d.stateDetails },
        ]}
      />
    </Modal>
  );
}

function CreateIntegration({ providers, onClose }: { providers: Provider[]; onClose: () => void }) {
  const [providerName, setProviderName] = useState<string | null>(providers[0]?.name ?? null);
  const provider = providers.find((p) => p.name === providerName);
  const [description, setDescription] = useState('');
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [events, setEvents] = useState<string[]>([]);
  const create = useChange(
    () =>
      ok(
        api.POST('/api/admin/addons', {
          body: { provider: providerName ?? '', description: description.trim() || null, enabled: true, parameters, events: events as EventType[] },
        }),
      ),
    ['addons'],
  );
  return (
    <FormDialog title="New integration" submitLabel="Create integration" size="lg" onClose={onClose} onSubmit={() => create.mutateAsync()}>
      <Select
        label="Provider"
        data={providers.map((p) => ({ value: p.name, label: p.displayName }))}
        value={providerName}
        onChange={(name) => {
          setProviderName(name);
          setParameters({});
          setEvents([]);
        }}
        allowDeselect={false}
      />
      <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      {provider?.parameters.map((p) => {
        const field = {
          label: p.displayName,
          description: p.description,
          placeholder: p.placeholder,
          required: p.required,
          value: parameters[p.name] ?? '',
          onChange: (e: { currentTarget: { value: string } }) => setParameters({ ...parameters, [p.name]: e.currentTarget.value }),
        };
        return p.type === 'textfield' ? <Textarea key={p.name} {...field} /> : <TextInput key={p.name} type={p.type === 'url' ? 'url' : 'text'} {...field} />;
      })}
      <MultiSelect label="Events" searchable data={provider?.events ?? []} value={events} onChange={setEvents} />
    </FormDialog>
  );
}
