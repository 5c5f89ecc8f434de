// What the OpenID Connect and SAML settings forms share: the stored settings read, saved and removed, the form's draft,
// the root role given to the users a provider creates (a built-in role by name, a custom root role by id), the
// configured badge, and the save and remove buttons.
import { Badge, Button, Group, Select, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { ConfirmButton, PageLoader, QueryError } from './feedback';
import { confirmDone } from './confirm-done';

type BuiltInRole = components['schemas']['OidcRootRoleName'];
type KeysOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D];

/** What a provider's settings change besides their own: the password switch (removing the last provider turns it on). */
export const PASSWORD_KEY = ['password-auth-settings'];

/** The stored settings; the form is read afresh (remounted) whenever they change: saved, removed. */
export function StoredSettings<T>({ queryKey, read, children }: { queryKey: string[]; read: () => Promise<T>; children: (stored: T) => ReactNode }) {
  const stored = useQuery({ queryKey, queryFn: read });
  if (stored.isPending) return <PageLoader />;
  if (stored.isError) return <QueryError error={stored.error} />;
  return <Fragment key={JSON.stringify(stored.data)}>{children(stored.data)}</Fragment>;
}

/** Saving and removing a provider's settings, which the password switch depends on too; a save says it is done. */
export function useSettingsChanges(queryKey: string[], calls: { save: () => Promise<unknown>; remove: () => Promise<unknown> }, saved: string, onSaved?: () => void) {
  const save = useChange(calls.save, queryKey, PASSWORD_KEY);
  const remove = useChange(calls.remove, queryKey, PASSWORD_KEY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Not mutate's onSuccess: the form is remounted with the stored settings, which drops that callback.
    save.mutateAsync(undefined).then(
      () => {
        onSaved?.();
        confirmDone(saved);
      },
      () => undefined,
    );
  };
  return { save, remove: () => remove.mutateAsync(undefined), submit };
}

/** A form's draft, with the props of its text fields and switches. */
export function useDraft<D extends object>(initial: () => D) {
  const [draft, setDraft] = useState(initial);
  const set =
    <K extends keyof D>(key: K) =>
    (value: D[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: KeysOf<D, string>) => ({
    value: draft[key] as string,
    onChange: (e: { currentTarget: { value: string } }) => set(key)(e.currentTarget.value as D[typeof key]),
  });
  const toggle = (key: KeysOf<D, boolean>) => ({
    checked: draft[key] as boolean,
    onChange: (e: { currentTarget: { checked: boolean } }) => set(key)(e.currentTarget.checked as D[typeof key]),
  });
  const update = (patch: Partial<D>) => setDraft((d) => ({ ...d, ...patch }));
  return { draft, set, update, text, toggle };
}

const BUILT_IN_ROLES: BuiltInRole[] = ['Viewer', 'Editor', 'Admin'];
const isBuiltInRole = (value: string): value is BuiltInRole => (BUILT_IN_ROLES as string[]).includes(value);

/** The stored role as the Select holds it: a built-in role's name, a custom root role's id, or null. */
export const rootRoleOf = (stored: { defaultRootRole?: BuiltInRole; defaultRootRoleId?: number }) =>
  stored.defaultRootRole ?? (stored.defaultRootRoleId === undefined ? null : String(stored.defaultRootRoleId));

/** The Select's role as the settings send it. */
export const rootRoleFields = (role: string | null) =>
  role === null ? {} : isBuiltInRole(role) ? { defaultRootRole: role } : { defaultRootRoleId: Number(role) };

function DefaultRootRoleSelect({ value, onChange }: { value: string | null; onChange: (role: string | null) => void }) {
  const roles = useQuery({ queryKey: ['roles'], queryFn: async () => (await ok(api.GET('/api/admin/roles'))).roles });
  const custom = (roles.data ?? []).filter((role) => role.type === 'root-custom').map((role) => ({ value: String(role.id), label: role.name }));
  const options = [...BUILT_IN_ROLES.map((name) => ({ value: name, label: name })), ...custom];
  return (
    <Select label="Default root role" description="The root role of the users created" placeholder="None" clearable data={options} value={value} onChange={onChange} />
  );
}

/** Who a provider's sign-in creates, and with which root role. */
interface NewUserRules {
  autoCreate: boolean;
  /** A built-in role's name, or a custom root role's id. */
  rootRole: string | null;
  emailDomains: string;
}

export function NewUserFields({ draft, update }: { draft: NewUserRules; update: (patch: Partial<NewUserRules>) => void }) {
  return (
    <>
      <Switch label="Create users at their first sign-in" checked={draft.autoCreate} onChange={(e) => update({ autoCreate: e.currentTarget.checked })} />
      <Group grow align="flex-start">
        <DefaultRootRoleSelect value={draft.rootRole} onChange={(rootRole) => update({ rootRole })} />
        <TextInput
          label="Email domains"
          description="Comma-separated; only users of these are created"
          maxLength={2000}
          value={draft.emailDomains}
          onChange={(e) => update({ emailDomains: e.currentTarget.value })}
        />
      </Group>
    </>
  );
}

export function ConfiguredBadge({ configured }: { configured: boolean }) {
  return (
    <Group gap="xs">
      <Badge color={configured ? 'teal.9' : 'gray.7'} variant={configured ? 'filled' : 'outline'}>
        {configured ? 'Configured' : 'Not configured'}
      </Badge>
    </Group>
  );
}

/** Save, and Remove (asking first) once settings are stored; nothing for who may not change them. */
export function SettingsActions(props: {
  mayChange: boolean;
  mayRemove: boolean;
  saving: boolean;
  /** What the removal dialog asks and says. */
  removal: { title: string; text: string };
  onRemove: () => Promise<unknown>;
}) {
  if (!props.mayChange) return null;
  return (
    <Group>
      <Button type="submit" loading={props.saving}>
        Save settings
      </Button>
      {props.mayRemove && (
        <ConfirmButton label="Remove" title={props.removal.title} confirmLabel="Remove settings" done="Settings removed." onConfirm={props.onRemove}>
          {props.removal.text}
        </ConfirmButton>
      )}
    </Group>
  );
}
