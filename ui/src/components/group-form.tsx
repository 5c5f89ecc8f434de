// A group's dialog: empty to create one (createGroup), or prefilled with a group to replace it whole (updateGroup:
// name, description, SSO mappings, root role and the complete member list are all sent, so members are added and
// removed by choosing the new list).
import { MultiSelect, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, ok } from '../api';
import { useChange, usersQuery } from '../queries';
import { FormDialog } from './forms';
import { userName } from './user-picker';

type Group = components['schemas']['Group'];
type UpsertGroup = components['schemas']['UpsertGroup'];

export function GroupDialog({ group, onClose }: { group?: Group; onClose: () => void }) {
  const users = useQuery(usersQuery);
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [rootRole, setRootRole] = useState<string | null>(group?.rootRole != null ? String(group.rootRole) : null);
  const [members, setMembers] = useState<string[]>((group?.users ?? []).map((m) => String(m.user.id)));
  const [mappings, setMappings] = useState<string[]>(group?.mappingsSSO ?? []);
  // The current members are offered even before (or without) the list of every user.
  const candidates = new Map([...(group?.users ?? []).map((m) => m.user), ...(users.data?.users ?? [])].map((u) => [u.id, u]));
  const save = useChange(() => {
    const body: UpsertGroup = {
      name: name.trim(),
      description: description.trim() || null,
      mappingsSSO: mappings,
      rootRole: rootRole ? Number(rootRole) : null,
      users: members.map((id) => ({ user: { id: Number(id) } })),
    };
    return group ? ok(api.PUT('/api/admin/groups/{groupId}', { params: { path: { groupId: group.id } }, body })) : ok(api.POST('/api/admin/groups', { body }));
  }, ['groups']);
  return (
    <FormDialog title={group ? `Edit group ${group.name}` : 'New group'} submitLabel={group ? 'Save group' : 'Create group'} onClose={onClose} onSubmit={() => save.mutateAsync()} done={group ? `Group ${name.trim()} saved.` : `Group ${name.trim()} created.`}>
      <TextInput label="Name" required data-autofocus maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" maxLength={1000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select
        label="Root role"
        description="Every member holds it"
        placeholder="None"
        clearable
        data={(users.data?.rootRoles ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
        value={rootRole}
        onChange={setRootRole}
      />
      <MultiSelect
        label="Members"
        searchable
        data={[...candidates.values()].map((u) => ({ value: String(u.id), label: userName(u) }))}
        value={members}
        onChange={setMembers}
      />
      <TagsInput label="SSO groups" description="Names of single sign-on groups that map to this group" value={mappings} onChange={setMappings} acceptValueOnBlur />
    </FormDialog>
  );
}
