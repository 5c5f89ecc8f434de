import type { Handlers } from '../generated/handlers.js';

export const usageMetricHandlers = {
  async getRequestsPerSecond() {
    throw new Error('getRequestsPerSecond: being written');
  },
} satisfies Partial<Handlers>;
