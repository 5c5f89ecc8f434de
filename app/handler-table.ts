import type { Handlers } from '../domain/handler-context.js';
import { addonHandlers } from '../handlers/addons.js';
import { changeRequestHandlers } from '../handlers/change-requests.js';
import { apiTokenHandlers } from '../handlers/api-tokens.js';
import { applicationHandlers } from '../handlers/applications.js';
import { clientHandlers } from '../handlers/client.js';
import { contextFieldHandlers } from '../handlers/context-fields.js';
import { dependencyHandlers } from '../handlers/dependencies.js';
import { environmentVariantHandlers } from '../handlers/environment-variants.js';
import { environmentHandlers } from '../handlers/environments.js';
import { eventHandlers } from '../handlers/events.js';
import { favoriteHandlers } from '../handlers/favorites.js';
import { featureSearchHandlers } from '../handlers/feature-search.js';
import { featureStrategyHandlers } from '../handlers/feature-strategies.js';
import { featureTagHandlers } from '../handlers/feature-tags.js';
import { featureTypeHandlers } from '../handlers/feature-types.js';
import { featureHandlers } from '../handlers/features.js';
import { flagCreatorHandlers } from '../handlers/flag-creators.js';
import { frontendHandlers } from '../handlers/frontend.js';
import { ofrepHandlers } from '../handlers/ofrep.js';
import { edgeHandlers } from '../handlers/edge.js';
import { groupHandlers } from '../handlers/groups.js';
import { healthHandlers } from '../handlers/health.js';
import { lifecycleHandlers } from '../handlers/lifecycle.js';
import { ssoSettingHandlers } from '../handlers/sso-settings.js';
import { signInOptionHandlers } from '../handlers/sign-in-options.js';
import { oidcSignInHandlers } from '../handlers/oidc-sign-in.js';
import { samlSignInHandlers } from '../handlers/saml-sign-in.js';
import { playgroundHandlers } from '../handlers/playground.js';
import { projectAccessHandlers } from '../handlers/project-access.js';
import { projectInsightHandlers } from '../handlers/project-insights.js';
import { projectHandlers } from '../handlers/projects.js';
import { roleHandlers } from '../handlers/roles.js';
import { segmentHandlers } from '../handlers/segments.js';
import { signupHandlers } from '../handlers/signup.js';
import { stateHandlers } from '../handlers/state.js';
import { strategyHandlers } from '../handlers/strategies.js';
import { tagTypeHandlers } from '../handlers/tag-types.js';
import { tagHandlers } from '../handlers/tags.js';
import { usageMetricHandlers } from '../handlers/usage-metrics.js';
import { userHandlers } from '../handlers/users.js';
import { releasePlanHandlers } from '../handlers/release-plans.js';
import { releasePlanTemplateHandlers } from '../handlers/release-plan-templates.js';
import { releasePlanSafeguardHandlers } from '../handlers/release-plan-safeguards.js';
import { impactMetricHandlers } from '../handlers/impact-metrics.js';

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
  ...ofrepHandlers,
  ...edgeHandlers,
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
  ...ssoSettingHandlers,
  ...signInOptionHandlers,
  ...oidcSignInHandlers,
  ...samlSignInHandlers,
  ...addonHandlers,
  ...stateHandlers,
  ...usageMetricHandlers,
  ...changeRequestHandlers,
  ...releasePlanTemplateHandlers,
  ...releasePlanHandlers,
  ...releasePlanSafeguardHandlers,
  ...impactMetricHandlers,
} satisfies Handlers;
