import type { Handlers } from '../domain/handler-context.js';
import { userIdOf } from '../shared/caller.js';
import { pageOf, searchConditions, searchOrder } from '../domain/flags/search-filters.js';
import { searchPage } from '../domain/flags/search-results.js';

export const featureSearchHandlers = {
  async searchFeatures({ query }, { db, caller, recentReads }) {
    const userId = userIdOf(caller);
    const body = await recentReads.read(`search ${userId} ${JSON.stringify(query)}`, () =>
      searchPage(db, searchConditions(query), searchOrder(query, userId), pageOf(query), userId),
    );
    return { status: 200, body };
  },
} satisfies Partial<Handlers>;
