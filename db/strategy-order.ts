/** The order strategies are evaluated and listed in: sortOrder, then age, then id (the same on every replica). */
export const strategyOrder = (a: { sortOrder: number; createdAt: Date; id: string }, b: { sortOrder: number; createdAt: Date; id: string }) =>
  a.sortOrder - b.sortOrder || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
