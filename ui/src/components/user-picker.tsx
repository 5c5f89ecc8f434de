import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';

/** How a user is named to other users: name, else username, else email. */
export const userName = (u: { id: number; name?: string | null; username?: string | null; email?: string | null }) => u.name ?? u.username ?? u.email ?? `User #${u.id}`;

/**
 * One user, found by typing part of their name, username or email (searchUsers, open to every signed-in user, so
 * that project owners who may not list users can still choose one). `exclude`: ids not to offer.
 */
export function UserPicker({ value, onChange, exclude = [] }: { value: string | null; onChange: (id: string | null) => void; exclude?: number[] }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 200);
  const found = useQuery({
    queryKey: ['user-search', q],
    queryFn: () => ok(api.GET('/api/admin/user-admin/search', { params: { query: { q } } })),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
  const options = (q ? (found.data ?? []) : [])
    .filter((u) => !exclude.includes(u.id))
    .map((u) => ({ value: String(u.id), label: u.email && u.email !== userName(u) ? `${userName(u)} (${u.email})` : userName(u) }));
  return (
    <Select
      label="User"
      placeholder="Type a name, username or email"
      searchable
      clearable
      data-autofocus
      data={options}
      // The service has matched the text already, in fields the label may not show.
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={setSearch}
      value={value}
      onChange={onChange}
      nothingFoundMessage={q && found.isFetched ? 'Nobody found' : undefined}
    />
  );
}
