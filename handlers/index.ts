import type { Handlers } from '../generated/handlers.js';
import { apiTokenHandlers } from './api-tokens.js';
import { eventHandlers } from './events.js';
import { healthHandlers } from './health.js';
import { tagTypeHandlers } from './tag-types.js';
import { tagHandlers } from './tags.js';

/** One handler per operationId of the contract; a missing or misspelled one fails to compile. */
export const handlers = {
  ...healthHandlers,
  ...tagHandlers,
  ...tagTypeHandlers,
  ...eventHandlers,
  ...apiTokenHandlers,
} satisfies Handlers;
