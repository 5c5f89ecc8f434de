// The admin UI's flag list state (ui/src/lib/flag-search.ts): the page address and the search query it makes.
import { describe, expect, it } from 'vitest';
import { readListState, searchQuery, writeListState } from '../ui/src/lib/flag-search.js';

const read = (address: string) => readListState(new URLSearchParams(address));

describe('the flag list state', () => {
  it('is the plain list for an empty address, and writes back to an empty address', () => {
    const state = read('');
    expect(state).toEqual({ q: '', project: null, type: null, state: null, tag: null, favoritesFirst: false, sort: 'createdAt', order: 'desc', page: 1 });
    expect(writeListState(state).toString()).toBe('');
  });

  it('keeps every filter, favourites first included, through the address', () => {
    const address = 'q=checkout&project=web&type=release&state=stale&tag=team%3Apay&favoritesFirst=true&sort=name&order=asc&page=3';
    expect(writeListState(read(address)).toString()).toBe(address);
  });

  it('reads favourites first only from favoritesFirst=true', () => {
    expect(read('favoritesFirst=1').favoritesFirst).toBe(false);
    expect(read('favoritesFirst=true').favoritesFirst).toBe(true);
  });

  it('asks the search for favourites first only when the switch is on', () => {
    expect(searchQuery(read('favoritesFirst=true')).favoritesFirst).toBe('true');
    expect(searchQuery(read('')).favoritesFirst).toBeUndefined();
  });

  it('turns the filters into the search grammar and the page into an offset', () => {
    expect(searchQuery(read('q=%20pay%20&project=web&type=release&state=stale&tag=team%3Apay&sort=name&order=asc&page=2'), 10)).toEqual({
      query: 'pay',
      project: 'IS:web',
      type: 'IS:release',
      state: 'IS:stale',
      tag: 'INCLUDE:team:pay',
      sortBy: 'name',
      sortOrder: 'asc',
      offset: '10',
      limit: '10',
    });
  });
});
