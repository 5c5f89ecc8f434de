// A user's dialogs: one to create a user (createUser) or change one's name, email and root role (updateUser:
// only what changed is sent), and one to set a user's password (changeUserPassword, which ends their sessions).
import { PasswordInput, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange } from '../queries';
import { SESSION_KEY, useSession } from '../session';
import { FormDialog } from './forms';
import { PASSWORD_RULE } from './new-password';
import { userName } from './user-picker';

type User = components['schemas']['User'];
type Role = components['schemas']['Role'];


export function UserDialog({ user, roles, onClose }: { user?: User; roles: Role[]; onClose: () => void }) {
  const session = useSession();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string | null>(user ? (roles.find((r) => r.id === user.rootRole)?.name ?? null) : 'Viewer');
  // Changing one's own root role changes what one may do: the session is read again with the users.
  const refresh = user && user.id === session.user?.id ? [['users'], [...SESSION_KEY]] : [['users']];
  const save = useChange(() => {
    const [trimmedName, trimmedEmail] = [name.trim(), email.trim()];
    if (!user) {
      return ok(
        api.POST('/api/admin/user-admin', {
          body: {
            rootRole: role ?? 'Viewer',
            ...(username.trim() && { username: username.trim() }),
            ...(trimmedEmail && { email: trimmedEmail }),
            ...(trimmedName && { name: trimmedName }),
            ...(password && { password }),
          },
        }),
      );
    }
    const body = {
      ...(trimmedName !== (user.name ?? '') && { name: trimmedName || null }),
      ...(trimmedEmail && trimmedEmail !== user.email && { email: trimmedEmail }),
      ...(role && role !== roles.find((r) => r.id === user.rootRole)?.name && { rootRole: role }),
    };
    return ok(api.PUT('/api/admin/user-admin/{id}', { params: { path: { id: user.id } }, body }));
  }, ...refresh);
  return (
    <FormDialog title={user ? `Edit user ${userName(user)}` : 'New user'} submitLabel={user ? 'Save user' : 'Create user'} onClose={onClose} onSubmit={() => save.mutateAsync()} done={user ? `${name.trim() || userName(user)} saved.` : `${name.trim() || username.trim() || email.trim()} created.`}>
      {user ? (
        user.username && <TextInput label="Username" description="A username cannot change" value={user.username} readOnly />
      ) : (
        <TextInput label="Username" data-autofocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
      )}
      <TextInput
        label="Email"
        type="email"
        // Once set, an email can be changed but not removed.
        required={Boolean(user?.email)}
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
      />
      <TextInput label="Name" data-autofocus={user ? true : undefined} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      {!user && <PasswordInput label="Password" description={PASSWORD_RULE} value={password} onChange={(e) => setPassword(e.currentTarget.value)} />}
      <Select label="Root role" data={roles.map((r) => r.name)} value={role} onChange={setRole} allowDeselect={false} />
    </FormDialog>
  );
}

export function PasswordDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const change = useChange(() => ok(api.POST('/api/admin/user-admin/{id}/change-password', { params: { path: { id: user.id } }, body: { password } })), ['users']);
  return (
    <FormDialog title={`Set password for ${userName(user)}`} submitLabel="Set password" onClose={onClose} onSubmit={() => change.mutateAsync()} done={`Password set for ${userName(user)}.`} disabled={password === ''}>
      <PasswordInput label="New password" description={PASSWORD_RULE} required data-autofocus value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Text size="sm">Their sessions end: they sign in again with the new password.</Text>
    </FormDialog>
  );
}
