// The cells a flag's row has in every flag table (the flag list, a project's flags): its name (starred, linked,
// marked stale), its state in each environment, when it was created; and the tables' footer (the count, the pages).
import { Anchor, Badge, Group, Pagination, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../generated/api.js';
import { pageCount, PAGE_SIZE } from '../lib/flag-search.js';
import { flagPath } from '../paths';
import { FlagFavoriteStar } from './favorite-star';

type SearchedFeature = components['schemas']['SearchedFeature'];

/** The flag's name, linked to its page, with its favourite star and, when stale, a badge. */
export function FlagNameCell({ flag }: { flag: Pick<SearchedFeature, 'project' | 'name' | 'favorite' | 'stale'> }) {
  return (
    <Table.Td>
      <Group gap={4} wrap="nowrap">
        <FlagFavoriteStar project={flag.project} name={flag.name} favorite={flag.favorite} />
        <Anchor component={Link} to={flagPath(flag.project, flag.name)} fw={600}>
          {flag.name}
        </Anchor>
        {flag.stale && (
          <Badge color="red" variant="light" ml="xs" size="sm">
            stale
          </Badge>
        )}
      </Group>
    </Table.Td>
  );
}

/** The flag's state in each environment: `development: on`. */
export function FlagEnvironmentsCell({ flag }: { flag: Pick<SearchedFeature, 'environments'> }) {
  return (
    <Table.Td>
      <Group gap={4}>
        {flag.environments.map((env) => (
          <Badge key={env.name} color={env.enabled ? 'teal.9' : 'gray.7'} variant={env.enabled ? 'filled' : 'outline'} size="sm" tt="none">
            {env.name}: {env.enabled ? 'on' : 'off'}
          </Badge>
        ))}
      </Group>
    </Table.Td>
  );
}

/** The day the flag was created, in the browser's format. */
export const FlagCreatedCell = ({ flag }: { flag: Pick<SearchedFeature, 'createdAt'> }) => <Table.Td>{new Date(flag.createdAt).toLocaleDateString()}</Table.Td>;

/** Under a flag table: how many flags there are (what `children` add after it), and the table's pages, hidden while everything fits on one. */
export function FlagTableFooter({ total, page, onPage, children }: { total: number; page: number; onPage: (page: number) => void; children?: ReactNode }) {
  return (
    <Group justify="space-between">
      <Text size="sm">
        {total} flag{total === 1 ? '' : 's'}
        {children}
      </Text>
      <Pagination
        total={pageCount(total)}
        value={page}
        onChange={onPage}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        hidden={total <= PAGE_SIZE}
      />
    </Group>
  );
}
