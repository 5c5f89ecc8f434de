import { Param, Placeholder, sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = any($1)`: the list travels as one array parameter (or a placeholder of a prepared query).
 * Drizzle's `inArray` binds one parameter per value, which at a page of 50 flags cost more to build than
 * the query took to run.
 */
export const isAnyOf = (column: Column, values: readonly (string | number)[] | Placeholder): SQL =>
  sql`${column} = any(${values instanceof Placeholder ? values : new Param(values)})`;
