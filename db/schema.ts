import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { components } from '../generated/api.js';

// Column types (`.$type`) come from the contract: a row holds what the API reads and writes.
type Schemas = components['schemas'];
export type StrategyParameterDefinition = Schemas['StrategyParameterDefinition'];
export type LifecycleStageName = Schemas['LifecycleStageName'];
/** A constraint as stored: flags defaulted and `values` always present, the shape SDKs get. */
type StoredConstraint = Schemas['ClientConstraint'];

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const settings = pgTable('settings', {
  name: text('name').primaryKey(),
  content: jsonb('content').notNull(),
});

export const permissions = pgTable('permissions', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
  displayName: text('display_name').notNull(),
  type: text('type').notNull(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  type: text('type').notNull(),
  createdAt: createdAt(),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    id: serial('id').primaryKey(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text('permission')
      .notNull()
      .references(() => permissions.name, { onDelete: 'cascade' }),
    environment: text('environment'),
  },
  (t) => [index('role_permissions_role_idx').on(t.roleId)],
);

export const environments = pgTable('environments', {
  name: text('name').primaryKey(),
  type: text('type').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  protected: boolean('protected').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(9999),
  createdAt: createdAt(),
});

export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  mode: text('mode').$type<Schemas['ProjectMode']>().notNull().default('open'),
  defaultStickiness: text('default_stickiness').notNull().default('default'),
  health: integer('health').notNull().default(100),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }),
});

export const projectEnvironments = pgTable(
  'project_environments',
  {
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environment: text('environment')
      .notNull()
      .references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.project, t.environment] })],
);

export const featureTypes = pgTable('feature_types', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  lifetimeDays: integer('lifetime_days'),
});

export const strategies = pgTable('strategies', {
  name: text('name').primaryKey(),
  title: text('title'),
  description: text('description').notNull().default(''),
  parameters: jsonb('parameters').$type<StrategyParameterDefinition[]>().notNull().default([]),
  builtIn: boolean('built_in').notNull().default(false),
  deprecated: boolean('deprecated').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(9999),
  createdAt: createdAt(),
});

export const contextFields = pgTable('context_fields', {
  name: text('name').primaryKey(),
  description: text('description'),
  stickiness: boolean('stickiness').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(10),
  legalValues: jsonb('legal_values').$type<Schemas['LegalValue'][]>().notNull().default([]),
  createdAt: createdAt(),
});

export const tagTypes = pgTable('tag_types', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  icon: text('icon'),
  color: text('color'),
  createdAt: createdAt(),
});

export const tags = pgTable(
  'tags',
  {
    type: text('type')
      .notNull()
      .references(() => tagTypes.name),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.type, t.value] })],
);

export const features = pgTable(
  'features',
  {
    name: text('name').primaryKey(),
    project: text('project')
      .notNull()
      .references(() => projects.id),
    type: text('type').notNull().default('release'),
    description: text('description'),
    stale: boolean('stale').notNull().default(false),
    impressionData: boolean('impression_data').notNull().default(false),
    createdByUserId: integer('created_by_user_id'),
    /** The creator's name as events record it (a user's email or a token's name). */
    createdBy: text('created_by'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('features_project_idx').on(t.project), index('features_created_at_idx').on(t.createdAt, t.name)],
);

/** The lifecycle stages each flag entered, each once; the latest is its current stage. */
export const featureLifecycles = pgTable(
  'feature_lifecycles',
  {
    featureName: text('feature_name')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    stage: text('stage').$type<LifecycleStageName>().notNull(),
    status: text('status').$type<Schemas['CompleteFeature']['status']>(),
    statusValue: text('status_value'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.featureName, t.stage] })],
);

export const featureEnvironments = pgTable(
  'feature_environments',
  {
    featureName: text('feature_name')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    environment: text('environment')
      .notNull()
      .references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    enabled: boolean('enabled').notNull().default(false),
    variants: jsonb('variants').$type<Schemas['Variant'][]>().notNull().default([]),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.featureName, t.environment] }), index('feature_environments_env_idx').on(t.environment)],
);

export const featureStrategies = pgTable(
  'feature_strategies',
  {
    id: text('id').primaryKey(),
    featureName: text('feature_name')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    environment: text('environment')
      .notNull()
      .references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    strategyName: text('strategy_name').notNull(),
    title: text('title'),
    disabled: boolean('disabled').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    parameters: jsonb('parameters').$type<Schemas['FeatureStrategy']['parameters']>().notNull().default({}),
    constraints: jsonb('constraints').$type<StoredConstraint[]>().notNull().default([]),
    variants: jsonb('variants').$type<Schemas['StrategyVariant'][]>().notNull().default([]),
    /** The release plan milestone this strategy is served for; null for the flag's own strategies. */
    milestoneId: text('milestone_id').references(() => releasePlanMilestones.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('feature_strategies_feature_env_idx').on(t.featureName, t.environment)],
);

export const segments = pgTable('segments', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  project: text('project').references(() => projects.id, { onDelete: 'cascade' }),
  constraints: jsonb('constraints').$type<StoredConstraint[]>().notNull().default([]),
  createdBy: text('created_by'),
  createdAt: createdAt(),
});

export const featureStrategySegments = pgTable(
  'feature_strategy_segments',
  {
    strategyId: text('strategy_id')
      .notNull()
      .references(() => featureStrategies.id, { onDelete: 'cascade' }),
    segmentId: integer('segment_id')
      .notNull()
      .references(() => segments.id),
  },
  (t) => [primaryKey({ columns: [t.strategyId, t.segmentId] }), index('feature_strategy_segments_segment_idx').on(t.segmentId)],
);

export const featureDependencies = pgTable(
  'feature_dependencies',
  {
    child: text('child')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    parent: text('parent')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    variants: jsonb('variants').$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.child, t.parent] }), index('feature_dependencies_parent_idx').on(t.parent)],
);

export const featureTags = pgTable(
  'feature_tags',
  {
    featureName: text('feature_name')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    tagType: text('tag_type').notNull(),
    tagValue: text('tag_value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.featureName, t.tagType, t.tagValue] }),
    foreignKey({ columns: [t.tagType, t.tagValue], foreignColumns: [tags.type, tags.value] }),
    index('feature_tags_tag_idx').on(t.tagType, t.tagValue),
  ],
);

export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').$type<Schemas['EventType']>().notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    createdByUserId: integer('created_by_user_id'),
    project: text('project'),
    featureName: text('feature_name'),
    environment: text('environment'),
    data: jsonb('data'),
    preData: jsonb('pre_data'),
    tags: jsonb('tags').$type<Schemas['EventTag'][]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [index('events_project_idx').on(t.project, t.id), index('events_feature_idx').on(t.featureName, t.id)],
);

export const apiTokens = pgTable('api_tokens', {
  id: serial('id').primaryKey(),
  secretHash: text('secret_hash').notNull().unique(),
  tokenName: text('token_name').notNull(),
  type: text('type').$type<Schemas['ApiTokenType']>().notNull(),
  environment: text('environment').notNull(),
  projects: jsonb('projects').$type<string[]>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  seenAt: timestamp('seen_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const clientApplications = pgTable('client_applications', {
  appName: text('app_name').primaryKey(),
  strategies: jsonb('strategies').$type<string[]>().notNull().default([]),
  createdAt: createdAt(),
  lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
});

export const clientInstances = pgTable(
  'client_instances',
  {
    appName: text('app_name')
      .notNull()
      .references(() => clientApplications.appName, { onDelete: 'cascade' }),
    instanceId: text('instance_id').notNull(),
    environment: text('environment').notNull(),
    sdkVersion: text('sdk_version'),
    clientIp: text('client_ip'),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appName, t.instanceId, t.environment] })],
);

/** Evaluations reported by SDKs, summed per flag, application, environment and hour. */
export const clientMetricsHourly = pgTable(
  'client_metrics_hourly',
  {
    featureName: text('feature_name').notNull(),
    appName: text('app_name').notNull(),
    environment: text('environment').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    yes: bigint('yes', { mode: 'number' }).notNull().default(0),
    no: bigint('no', { mode: 'number' }).notNull().default(0),
    variants: jsonb('variants').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.featureName, t.appName, t.environment, t.hour] }), index('client_metrics_hourly_hour_idx').on(t.hour)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name'),
    username: text('username'),
    email: text('email'),
    /** `scrypt$<N>$<salt hex>$<key hex>` (see domain/access/passwords.ts); null for users who cannot log in with a password. */
    passwordHash: text('password_hash'),
    imageUrl: text('image_url'),
    rootRoleId: integer('root_role_id')
      .notNull()
      .references(() => roles.id),
    loginAttempts: integer('login_attempts').notNull().default(0),
    seenAt: timestamp('seen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_username_idx').on(sql`lower(${t.username})`), uniqueIndex('users_email_idx').on(sql`lower(${t.email})`)],
);

/** Login sessions, kept server-side so that logout and user deletion end them. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** How the session began when an identity provider signed the user in: what signing out there needs. */
    sso: jsonb('sso').$type<SessionSso>(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export type SessionSso =
  | { provider: 'oidc'; idToken: string }
  | { provider: 'saml'; nameID: string; nameIDFormat: string; sessionIndex?: string | undefined };

/** What a sign-in begun with an identity provider keeps until the provider sends the browser back. */
export interface SsoRequestData {
  /** SHA-256 of the cookie that binds an OpenID Connect sign-in to the browser that began it. */
  browser?: string;
  nonce?: string;
  codeVerifier?: string;
  /** The path of this service to go to once signed in. */
  redirect?: string;
}

/** Sign-ins begun and not finished: OpenID Connect's `state` (hashed) and SAML's request ids, each taken once. */
export const ssoRequests = pgTable(
  'sso_requests',
  {
    id: text('id').primaryKey(),
    provider: text('provider').$type<'oidc' | 'saml'>().notNull(),
    data: jsonb('data').$type<SsoRequestData>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sso_requests_expires_idx').on(t.expiresAt)],
);

export const personalAccessTokens = pgTable('personal_access_tokens', {
  id: serial('id').primaryKey(),
  secretHash: text('secret_hash').notNull().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  description: text('description').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  rootRoleId: integer('root_role_id').references(() => roles.id),
  mappingsSso: jsonb('mappings_sso').$type<string[]>().notNull().default([]),
  createdBy: text('created_by'),
  createdAt: createdAt(),
});

export const groupUsers = pgTable(
  'group_users',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_users_user_idx').on(t.userId)],
);

/** Project roles held by users in a project. */
export const projectUserRoles = pgTable(
  'project_user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.project, t.roleId] }), index('project_user_roles_project_idx').on(t.project)],
);

/** Project roles held by groups in a project. */
export const projectGroupRoles = pgTable(
  'project_group_roles',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.project, t.roleId] }), index('project_group_roles_project_idx').on(t.project)],
);

export const publicSignupTokens = pgTable('public_signup_tokens', {
  secret: text('secret').primaryKey(),
  name: text('name').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  roleId: integer('role_id')
    .notNull()
    .references(() => roles.id),
  createdBy: text('created_by'),
  createdAt: createdAt(),
});

export const publicSignupTokenUsers = pgTable(
  'public_signup_token_users',
  {
    secret: text('secret')
      .notNull()
      .references(() => publicSignupTokens.secret, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.secret, t.userId] })],
);

export const favoriteFeatures = pgTable(
  'favorite_features',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    featureName: text('feature_name')
      .notNull()
      .references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.featureName] })],
);

export const favoriteProjects = pgTable(
  'favorite_projects',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.project] })],
);

/** Integrations (Unleash's addons): parameters as strings, sensitive ones included; answers mask them. */
export const addons = pgTable('addons', {
  id: serial('id').primaryKey(),
  provider: text('provider').notNull(),
  description: text('description').notNull().default(''),
  enabled: boolean('enabled').notNull(),
  parameters: jsonb('parameters').$type<Record<string, string>>().notNull(),
  events: jsonb('events').$type<Schemas['EventType'][]>().notNull(),
  projects: jsonb('projects').$type<string[]>().notNull(),
  environments: jsonb('environments').$type<string[]>().notNull(),
  createdAt: createdAt(),
});

/**
 * The outbox: one row per (integration, event) to deliver, written in the event's own transaction. A worker
 * leases the oldest rows of an integration (`lease_owner`, renewed while it works), sends them in event order and
 * deletes each once it is delivered or given up; a crashed worker's lease runs out and another takes the rows.
 */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    addonId: integer('addon_id')
      .notNull()
      .references(() => addons.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    deliveryId: text('delivery_id').notNull(),
    attempts: integer('attempts').notNull().default(0),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    leaseOwner: text('lease_owner'),
    createdAt: createdAt(),
  },
  (t) => [index('integration_deliveries_addon_idx').on(t.addonId, t.id)],
);

/** The delivery log: one row per attempt (Unleash's integration events). */
export const integrationEvents = pgTable(
  'integration_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    addonId: integer('addon_id')
      .notNull()
      .references(() => addons.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    state: text('state').$type<Schemas['IntegrationEvent']['state']>().notNull(),
    stateDetails: text('state_details').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('integration_events_addon_idx').on(t.addonId, t.id)],
);

/** Requests per 5-minute bucket, application and endpoint group: the source of usage metrics without Prometheus. */
export const requestCounts = pgTable(
  'request_counts',
  {
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    appName: text('app_name').notNull(),
    endpoint: text('endpoint').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.appName, t.endpoint] })],
);

/** Whether flag changes in one environment of a project go through change requests. */
export const changeRequestSettings = pgTable(
  'change_request_settings',
  {
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environment: text('environment')
      .notNull()
      .references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    requiredApprovals: integer('required_approvals').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.project, t.environment] })],
);

/** Changes to flags in one environment, proposed, reviewed and applied as one unit. Users may be deleted: no foreign key to them. */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: serial('id').primaryKey(),
    project: text('project')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    environment: text('environment')
      .notNull()
      .references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    state: text('state').$type<Schemas['ChangeRequestState']>().notNull(),
    title: text('title'),
    minApprovals: integer('min_approvals').notNull(),
    createdByUserId: integer('created_by_user_id').notNull(),
    createdAt: createdAt(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    scheduledByUserId: integer('scheduled_by_user_id'),
    scheduleStatus: text('schedule_status').$type<Schemas['ChangeRequestSchedule']['status']>(),
    scheduleReason: text('schedule_reason'),
  },
  (t) => [index('change_requests_project_idx').on(t.project, t.id), index('change_requests_scheduled_idx').on(t.state, t.scheduledAt)],
);

export const changeRequestChanges = pgTable(
  'change_request_changes',
  {
    id: serial('id').primaryKey(),
    changeRequestId: integer('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    feature: text('feature').notNull(),
    action: text('action').$type<Schemas['ChangeRequestAction']>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown> | unknown[]>().notNull(),
    /** The strategy a change updates or deletes, as it was when scheduled: a different one now suspends the schedule. */
    strategySnapshot: jsonb('strategy_snapshot'),
    createdByUserId: integer('created_by_user_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('change_request_changes_request_idx').on(t.changeRequestId)],
);

/** Approvals and rejections, one of each kind per user. */
export const changeRequestReviews = pgTable(
  'change_request_reviews',
  {
    changeRequestId: integer('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    kind: text('kind').$type<'approval' | 'rejection'>().notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.changeRequestId, t.userId, t.kind] })],
);

export const changeRequestComments = pgTable(
  'change_request_comments',
  {
    id: serial('id').primaryKey(),
    changeRequestId: integer('change_request_id')
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('change_request_comments_request_idx').on(t.changeRequestId)],
);

/** Release templates and the plans made of them (Unleash's one table of both, told apart by `discriminator`). */
export const releasePlanDefinitions = pgTable(
  'release_plan_definitions',
  {
    id: text('id').primaryKey(),
    discriminator: text('discriminator').$type<'template' | 'plan'>().notNull(),
    name: text('name').notNull(),
    description: text('description'),
    featureName: text('feature_name').references(() => features.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    environment: text('environment').references(() => environments.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    templateId: text('template_id'),
    activeMilestoneId: text('active_milestone_id'),
    createdByUserId: integer('created_by_user_id').notNull(),
    createdAt: createdAt(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('release_plan_templates_name_idx').on(t.name).where(sql`discriminator = 'template'`),
    uniqueIndex('release_plans_feature_env_idx').on(t.featureName, t.environment).where(sql`discriminator = 'plan'`),
  ],
);

export const releasePlanMilestones = pgTable(
  'release_plan_milestones',
  {
    id: text('id').primaryKey(),
    definitionId: text('definition_id')
      .notNull()
      .references(() => releasePlanDefinitions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull(),
    transitionCondition: jsonb('transition_condition').$type<Schemas['TransitionCondition']>(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    progressionExecutedAt: timestamp('progression_executed_at', { withTimezone: true }),
  },
  (t) => [index('release_plan_milestones_definition_idx').on(t.definitionId)],
);

export const releasePlanMilestoneStrategies = pgTable(
  'release_plan_milestone_strategies',
  {
    id: text('id').primaryKey(),
    milestoneId: text('milestone_id')
      .notNull()
      .references(() => releasePlanMilestones.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull(),
    title: text('title'),
    strategyName: text('strategy_name').notNull(),
    parameters: jsonb('parameters').$type<Schemas['FeatureStrategy']['parameters']>().notNull().default({}),
    constraints: jsonb('constraints').$type<StoredConstraint[]>().notNull().default([]),
    variants: jsonb('variants').$type<Schemas['StrategyVariant'][]>().notNull().default([]),
    segments: jsonb('segments').$type<number[]>().notNull().default([]),
    disabled: boolean('disabled'),
  },
  (t) => [index('release_plan_milestone_strategies_milestone_idx').on(t.milestoneId)],
);

export const releasePlanSafeguards = pgTable(
  'release_plan_safeguards',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => releasePlanDefinitions.id, { onDelete: 'cascade' }),
    actionType: text('action_type').$type<Schemas['SafeguardActionType']>().notNull(),
    triggerCondition: jsonb('trigger_condition').$type<Schemas['SafeguardTriggerCondition']>().notNull(),
    impactMetric: jsonb('impact_metric').$type<Schemas['SafeguardImpactMetric']>().notNull(),
    triggeredAt: timestamp('triggered_at', { withTimezone: true }),
    triggeredValue: doublePrecision('triggered_value'),
    createdAt: createdAt(),
  },
  (t) => [index('release_plan_safeguards_plan_idx').on(t.planId)],
);

/** Cumulative histogram bucket counts by upper bound (`le` as text, `+Inf` included). */
export type HistogramBuckets = Record<string, number>;

/** One series of an impact metric (its name and one label set), with its totals since first reported. */
export const impactMetricSeries = pgTable(
  'impact_metric_series',
  {
    name: text('name').notNull(),
    labelsKey: text('labels_key').notNull(),
    type: text('type').$type<Schemas['ImpactMetric']['type']>().notNull(),
    help: text('help').notNull(),
    labels: jsonb('labels').$type<Record<string, string>>().notNull(),
    total: doublePrecision('total').notNull().default(0),
    sum: doublePrecision('sum').notNull().default(0),
    buckets: jsonb('buckets').$type<HistogramBuckets>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.name, t.labelsKey] })],
);

/**
 * One minute of one series, summed across instances and replicas: a counter's increase (`value`), a gauge's latest
 * value, a histogram's observations (`value` their count, `sum`, `buckets`).
 */
export const impactMetricMinutes = pgTable(
  'impact_metric_minutes',
  {
    name: text('name').notNull(),
    labelsKey: text('labels_key').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    value: doublePrecision('value').notNull(),
    sum: doublePrecision('sum').notNull().default(0),
    buckets: jsonb('buckets').$type<HistogramBuckets>(),
  },
  (t) => [primaryKey({ columns: [t.name, t.labelsKey, t.minute] }), index('impact_metric_minutes_minute_idx').on(t.minute)],
);
