// The flag list's state lives in the page address (shareable, kept on back/forward); this turns it into the
// query of GET /api/admin/search/features and back.
import type { operations } from '../../../generated/api.js';

export type SearchQuery = NonNullable<operations['searchFeatures']['parameters']['query']>;

export const PAGE_SIZE = 25;

export const sortFields = [
  { value: 'createdAt', label: 'Created' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
  { value: 'project', label: 'Project' },
  { value: 'lastSeenAt', label: 'Last seen' },
] as const;

export const flagStates = [
  { value: 'active', label: 'Active' },
  { value: 'stale', label: 'Stale' },
  { value: 'potentially-stale', label: 'Potentially stale' },
] as const;

/** What the address says: `?q=&project=&type=&state=&tag=type:value&favoritesFirst=true&sort=&order=&page=`. */
export interface FlagListState {
  q: string;
  project: string | null;
  type: string | null;
  state: string | null;
  tag: string | null;
  /** The user's favourite flags ranked before the others, each part in the chosen order. */
  favoritesFirst: boolean;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
}

export function readListState(params: URLSearchParams): FlagListState {
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    project: params.get('project') || null,
    type: params.get('type') || null,
    state: params.get('state') || null,
    tag: params.get('tag') || null,
    favoritesFirst: params.get('favoritesFirst') === 'true',
    sort: params.get('sort') || 'createdAt',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The address for a state; defaults are left out so that the plain list is just `/flags`. */
export function writeListState(state: FlagListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const key of ['project', 'type', 'state', 'tag'] as const) if (state[key]) params.set(key, state[key]);
  if (state.favoritesFirst) params.set('favoritesFirst', 'true');
  if (state.sort !== 'createdAt') params.set('sort', state.sort);
  if (state.order !== 'desc') params.set('order', state.order);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** The search operation's query for a state: filters in the service's grammar (`IS:value`, `INCLUDE:type:value`). */
export function searchQuery(state: FlagListState, pageSize = PAGE_SIZE): SearchQuery {
  const query: SearchQuery = {
    sortBy: state.sort,
    sortOrder: state.order,
    offset: String((state.page - 1) * pageSize),
    limit: String(pageSize),
  };
  if (state.q.trim()) query.query = state.q.trim();
  if (state.project) query.project = `IS:${state.project}`;
  if (state.type) query.type = `IS:${state.type}`;
  if (state.state) query.state = `IS:${state.state}`;
  if (state.tag) query.tag = `INCLUDE:${state.tag}`;
  if (state.favoritesFirst) query.favoritesFirst = 'true';
  return query;
}

export const pageCount = (total: number, pageSize = PAGE_SIZE) => Math.max(1, Math.ceil(total / pageSize));
