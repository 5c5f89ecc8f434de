import type { Handlers } from '../generated/handlers.js';

export const healthHandlers = {
  async getHealth() {
    return { status: 200, body: { health: 'GOOD' } };
  },
} satisfies Partial<Handlers>;
