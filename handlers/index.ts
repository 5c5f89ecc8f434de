import type { Handlers } from '../generated/handlers.js';
import { addonHandlers } from './addons.js';
import { changeRequestHandlers } from './change-requests.js';
import { apiTokenHandlers } from './api-tokens.js';
import { applicationHandlers } from './applications.js';
import { clientHandlers } from './client.js';
import { contextFieldHandlers } from './context-fields.js';
import { dependencyHandlers } from './dependencies.js';
import { environmentVariantHandlers } from './environment-variants.js';
import { environmentHandlers } from './environments.js';
import { eventHandlers } from './events.js';
import { favoriteHandlers } from './favorites.js';
import { featureSearchHandlers } from './feature-search.js';
import { featureStrategyHandlers } from './feature-strategies.js';
import { featureTagHandlers } from './feature-tags.js';
import { featureTypeHandlers } from './feature-types.js';
import { featureHandlers } from './features.js';
import { flagCreatorHandlers } from './flag-creators.js';
import { frontendHandlers } from './frontend.js';
import { groupHandlers } from './groups.js';
import { healthHandlers } from './health.js';
import { lifecycleHandlers } from './lifecycle.js';
import { oidcSettingHandlers } from './oidc-settings.js';
import { playgroundHandlers } from './playground.js';
import { projectAccessHandlers } from './project-access.js';
import { projectInsightHandlers } from './project-insights.js';
import { projectHandlers } from './projects.js';
import { roleHandlers } from './roles.js';
import { segmentHandlers } from './segments.js';
import { signupHandlers } from './signup.js';
import { stateHandlers } from './state.js';
import { strategyHandlers } from './strategies.js';
import { tagTypeHandlers } from './tag-types.js';
import { tagHandlers } from './tags.js';
import { usageMetricHandlers } from './usage-metrics.js';
import { userHandlers } from './users.js';

/** One handler per operationId of the contract; a missing or misspelled one fails to compile. */
export const handlers = {
  ...healthHandlers,
  ...tagHandlers,
  ...tagTypeHandlers,
  ...eventHandlers,
  ...apiTokenHandlers,
  ...projectHandlers,
  ...environmentHandlers,
  ...featureTypeHandlers,
  ...featureHandlers,
  ...featureStrategyHandlers,
  ...environmentVariantHandlers,
  ...segmentHandlers,
  ...strategyHandlers,
  ...dependencyHandlers,
  ...featureTagHandlers,
  ...clientHandlers,
  ...frontendHandlers,
  ...applicationHandlers,
  ...contextFieldHandlers,
  ...featureSearchHandlers,
  ...playgroundHandlers,
  ...lifecycleHandlers,
  ...projectInsightHandlers,
  ...userHandlers,
  ...roleHandlers,
  ...signupHandlers,
  ...groupHandlers,
  ...projectAccessHandlers,
  ...flagCreatorHandlers,
  ...favoriteHandlers,
  ...oidcSettingHandlers,
  ...addonHandlers,
  ...stateHandlers,
  ...usageMetricHandlers,
  ...changeRequestHandlers,
} satisfies Handlers;
