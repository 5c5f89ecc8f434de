// Who holds which roles in a project: its users and groups, each with their project roles, changed in place and
// removed when the user may; new ones added in a dialog, users found by searching for them.
import { Badge, Group, MultiSelect, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import type { OperationId } from '../../../generated/operations.js';
import { api, ok } from '../api';
import { useChange, useGroups } from '../queries';
import { SESSION_KEY, useSession } from '../session';
import { confirmDone } from './confirm-done';
import { ConfirmButton } from './feedback';
import { FormDialog, when } from './forms';
import { ListTable } from './list';
import { UserPicker, userName } from './user-picker';

type Role = components['schemas']['Role'];
type ProjectAccess = components['schemas']['ProjectAccess'];

const projectAccessKey = (project: string) => ['project-access', project];

/** What a change of the project's access is followed by reading again: the access, and the user's own permissions (held through it). */
const changedAccess = (project: string) => [projectAccessKey(project), [...SESSION_KEY]];

export const useProjectAccess = (project: string) =>
  useQuery({ queryKey: projectAccessKey(project), queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/access', { params: { path: { projectId: project } } })) });

const roleOptions = (roles: Role[]) => roles.map((r) => ({ value: String(r.id), label: r.name }));

/** A user or a group holding roles in the project, as its row shows it. */
interface Holder {
  id: number;
  name: string;
  detail: string;
  roles: number[];
  addedAt: string;
}

/** What differs between a user and a group: the words, and the calls replacing its roles and taking them all away. */
interface Kind {
  column: string;
  table: string;
  detail: string;
  removing: (name: string) => string;
  setOperation: OperationId;
  removeOperation: OperationId;
  setRoles: (projectId: string, id: number, roles: number[]) => Promise<unknown>;
  remove: (projectId: string, id: number) => Promise<unknown>;
}

const kinds: Record<'user' | 'group', Kind> = {
  user: {
    column: 'User',
    table: 'Users',
    detail: 'Email or username',
    removing: (name) => `${name} loses every role in the project`,
    setOperation: 'setProjectUserRoles',
    removeOperation: 'removeProjectUserRoles',
    setRoles: (projectId: string, userId: number, roles: number[]) =>
      ok(api.PUT('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId, userId } }, body: { roles } })),
    remove: (projectId: string, userId: number) => ok(api.DELETE('/api/admin/projects/{projectId}/users/{userId}/roles', { params: { path: { projectId, userId } } })),
  },
  group: {
    column: 'Group',
    table: 'Groups',
    detail: 'Members',
    removing: (name) => `The members of ${name} lose the roles the group gave them in the project`,
    setOperation: 'setProjectGroupRoles',
    removeOperation: 'removeProjectGroupRoles',
    setRoles: (projectId: string, groupId: number, roles: number[]) =>
      ok(api.PUT('/api/admin/projects/{projectId}/groups/{groupId}/roles', { params: { path: { projectId, groupId } }, body: { roles } })),
    remove: (projectId: string, groupId: number) => ok(api.DELETE('/api/admin/projects/{projectId}/groups/{groupId}/roles', { params: { path: { projectId, groupId } } })),
  },
};

/** The project's users, each with their roles, changed in place and removed when the user may; `name` is the project's (its id when absent). */
export function ProjectUsers({ project, name, access }: { project: string; name?: string; access: ProjectAccess }) {
  const holders = access.users.map((u) => {
    const name = userName(u);
    return { id: u.id, name, detail: [u.email, u.username].filter((v) => v && v !== name).join(', '), roles: u.roles, addedAt: u.addedAt };
  });
  return <Holders kind="user" project={project} projectName={name ?? project} holders={holders} roles={access.roles} />;
}

/** The project's groups, each with their roles (which every member holds), changed and removed likewise. */
export function ProjectGroups({ project, name, access }: { project: string; name?: string; access: ProjectAccess }) {
  const holders = access.groups.map((g) => ({ id: g.id, name: g.name, detail: `${g.users.length} ${g.users.length === 1 ? 'member' : 'members'}`, roles: g.roles, addedAt: g.addedAt }));
  return <Holders kind="group" project={project} projectName={name ?? project} holders={holders} roles={access.roles} />;
}

function Holders({ kind, project, projectName, holders, roles }: { kind: 'user' | 'group'; project: string; projectName: string; holders: Holder[]; roles: Role[] }) {
  const session = useSession();
  const scope = { project };
  const words = kinds[kind];
  const canSet = session.can(words.setOperation, scope);
  const canRemove = session.can(words.removeOperation, scope);
  const setRoles = useChange(({ id, roles: held }: { id: number; roles: number[] }) => words.setRoles(project, id, held), ...changedAccess(project));
  const remove = useChange((id: number) => words.remove(project, id), ...changedAccess(project));
  return (
    <ListTable
      label={words.table}
      query={{ data: holders }}
      rowKey={(h) => h.id}
      empty={`No ${kind} holds a role in this project.`}
      columns={[
        { label: words.column, cell: (h) => <strong>{h.name}</strong> },
        { label: words.detail, cell: (h) => h.detail },
        {
          label: 'Roles',
          cell: (h) => (
            <HeldRoles
              holder={h.name}
              held={h.roles}
              roles={roles}
              onChange={canSet ? (next) => setRoles.mutateAsync({ id: h.id, roles: next }).then(() => confirmDone(`Roles of ${h.name} in ${projectName} saved.`)) : undefined}
            />
          ),
        },
        { label: 'Added', cell: (h) => when(h.addedAt) },
        canRemove && {
          label: 'Actions',
          cell: (h) => (
            <ConfirmButton label="Remove" size="xs" title={`Remove ${h.name} from ${projectName}?`} onConfirm={() => remove.mutateAsync(h.id)} done={`${h.name} removed from ${projectName}.`}>
              {words.removing(h.name)} (roles held otherwise stay).
            </ConfirmButton>
          ),
        },
      ]}
    />
  );
}

/**
 * The roles one user or group holds: badges, or a MultiSelect saving each change when it may be changed. The
 * last role stays (removing the member takes it away); a refused change goes back to the roles held.
 */
function HeldRoles({ holder, held, roles, onChange }: { holder: string; held: number[]; roles: Role[]; onChange?: (roles: number[]) => Promise<unknown> }) {
  const [value, setValue] = useState(held.map(String));
  const [lastKept, setLastKept] = useState(false);
  // The roles read again from the service replace the shown ones, keeping the "one role at least" message (a remount
  // would wipe it when the answer arrives just after it was shown).
  const [shownHeld, setShownHeld] = useState(held.join());
  if (shownHeld !== held.join()) {
    setShownHeld(held.join());
    setValue(held.map(String));
  }
  if (!onChange) {
    return (
      <Group gap={4} role="group" aria-label={`Roles of ${holder}`}>
        {held.map((id) => (
          <Badge key={id} variant="light" tt="none">
            {roles.find((r) => r.id === id)?.name ?? `#${id}`}
          </Badge>
        ))}
      </Group>
    );
  }
  const change = (next: string[]) => {
    setLastKept(next.length === 0);
    if (next.length === 0) return;
    setValue(next);
    onChange(next.map(Number)).catch(() => setValue(held.map(String)));
  };
  return (
    <MultiSelect
      aria-label={`Roles of ${holder}`}
      searchable
      data={roleOptions(roles)}
      value={value}
      onChange={change}
      error={lastKept && 'One role at least: Remove takes every role away.'}
      size="xs"
      miw={220}
    />
  );
}

/** Gives a user and/or a group roles in the project; `name` is the project's (its id when absent). */
export function AddProjectAccess({ project, name = project, access, onClose }: { project: string; name?: string; access: ProjectAccess; onClose: () => void }) {
  const groups = useGroups();
  const [user, setUser] = useState<string | null>(null);
  const [group, setGroup] = useState<string | null>(null);
  const [roles, setRoles] = useState<string[]>([]);
  const add = useChange(
    () =>
      ok(
        api.POST('/api/admin/projects/{projectId}/access', {
          params: { path: { projectId: project } },
          body: { roles: roles.map(Number), ...(user && { users: [Number(user)] }), ...(group && { groups: [Number(group)] }) },
        }),
      ),
    ...changedAccess(project),
  );
  // Who holds roles already changes them in their row.
  const groupOptions = (groups.data ?? []).filter((g) => !access.groups.some((held) => held.id === g.id)).map((g) => ({ value: String(g.id), label: g.name }));
  return (
    <FormDialog
      title={`Add members to ${name}`}
      submitLabel="Add"
      onClose={onClose}
      onSubmit={() => add.mutateAsync()}
      done={`Members added to ${name}.`}
      disabled={roles.length === 0 || (!user && !group)}
    >
      <UserPicker value={user} onChange={setUser} exclude={access.users.map((held) => held.id)} />
      <Select
        label="Group"
        description="Its members hold the roles for as long as they are in it"
        placeholder="None"
        searchable
        clearable
        data={groupOptions}
        value={group}
        onChange={setGroup}
      />
      <MultiSelect label="Roles" required searchable data={roleOptions(access.roles)} value={roles} onChange={setRoles} />
    </FormDialog>
  );
}
