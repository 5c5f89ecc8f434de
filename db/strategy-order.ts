interface Ordered {
  milestoneId: string | null;
  sortOrder: number;
  createdAt: Date;
  id: string;
}

/**
 * The order strategies are evaluated and listed in: those a release plan's milestone serves first (as Unleash), then
 * sortOrder, then age, then id (the same on every replica).
 */
export const strategyOrder = (a: Ordered, b: Ordered) =>
  Number(a.milestoneId === null) - Number(b.milestoneId === null) ||
  a.sortOrder - b.sortOrder ||
  a.createdAt.getTime() - b.createdAt.getTime() ||
  a.id.localeCompare(b.id);
