import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { Empty, PageLoader, QueryError } from './feedback';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
}

/** Rows being read: a query's result, or rows already at hand (`{ data: rows }`). */
export interface Rows<T> {
  data: T[] | undefined;
  isPending?: boolean;
  isError?: boolean;
  error?: unknown;
}

/** Rows as a table, or their loading, failure or emptiness. */
export function ListTable<T>({ label, query, columns, rowKey, empty }: { label: string; query: Rows<T>; columns: (Column<T> | false)[]; rowKey: (row: T) => string | number; empty: string }) {
  if (query.isError) return <QueryError error={query.error} />;
  if (query.isPending || !query.data) return <PageLoader />;
  if (query.data.length === 0) return <Empty>{empty}</Empty>;
  const shown = columns.filter((c): c is Column<T> => c !== false);
  return (
    <Table striped aria-label={label} verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          {shown.map((c) => (
            <Table.Th key={c.label}>{c.label}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {query.data.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {shown.map((c) => (
              <Table.Td key={c.label}>{c.cell(row)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
