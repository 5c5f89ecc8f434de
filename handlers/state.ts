import type { Handlers } from '../generated/handlers.js';

export const stateHandlers = {
  async exportState() {
    throw new Error('exportState: being written');
  },
  async importState() {
    throw new Error('importState: being written');
  },
} satisfies Partial<Handlers>;
