// The signed-in user's own dialogs: a new password (changeOwnPassword; typed twice, and sent only once both agree)
// and a new personal access token (createPersonalAccessToken: a description and the last day it is valid).
import { PasswordInput, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { confirmDone } from './confirm-done';
import { FormDialog } from './forms';
import { NewPasswordFields, useNewPassword } from './new-password';

type CreatedToken = components['schemas']['PersonalAccessTokenWithSecret'];

export const PERSONAL_TOKENS_KEY = ['personal-access-tokens'];

export function OwnPasswordDialog({ onClose }: { onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const next = useNewPassword();
  const change = useChange(() =>
    ok(api.POST('/api/admin/user/change-password', { body: { password: next.password, confirmPassword: next.repeated, oldPassword: current } })),
  );
  const submit = async () => {
    await change.mutateAsync();
    confirmDone('Your password is changed; your other sessions have ended.');
  };
  return (
    <FormDialog title="Change your password" submitLabel="Change password" onClose={onClose} onSubmit={submit} disabled={current === '' || !next.ready}>
      <PasswordInput label="Current password" autoComplete="current-password" required maxLength={128} data-autofocus value={current} onChange={(e) => setCurrent(e.currentTarget.value)} />
      <NewPasswordFields label="New password" value={next} />
      <Text size="sm">You stay signed in here; your sessions elsewhere end.</Text>
    </FormDialog>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A day in local time as a date input writes it (`2026-01-31`), `days` after today. */
const dayFromNow = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** The last second of a date input's day in local time, as an instant; undefined when that has passed. */
function endOfDay(day: string): string | undefined {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return undefined;
  const end = new Date(year, month - 1, date, 23, 59, 59);
  return end.getTime() > Date.now() ? end.toISOString() : undefined;
}

export function PersonalTokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedToken) => void }) {
  const [description, setDescription] = useState('');
  const [lastDay, setLastDay] = useState(dayFromNow(30));
  const expiresAt = endOfDay(lastDay);
  const create = useChange(() => ok(api.POST('/api/admin/user/tokens', { body: { description: description.trim(), expiresAt: expiresAt! } })), PERSONAL_TOKENS_KEY);
  return (
    <FormDialog
      title="New personal access token"
      submitLabel="Create token"
      onClose={onClose}
      onSubmit={async () => onCreated(await create.mutateAsync())}
      disabled={description.trim() === '' || expiresAt === undefined}
    >
      <TextInput label="Description" description="What the token is for" required maxLength={255} data-autofocus value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <TextInput
        label="Valid until"
        description="The token is refused after this day ends (your local time)"
        type="date"
        required
        min={dayFromNow(0)}
        value={lastDay}
        onChange={(e) => setLastDay(e.currentTarget.value)}
        error={lastDay !== '' && expiresAt === undefined ? 'Choose today or a later day' : undefined}
      />
      <Text size="sm">The token acts as you, with your permissions, on the admin API.</Text>
    </FormDialog>
  );
}
