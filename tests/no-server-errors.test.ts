// Every operation, called on resources that exist with bodies the contract accepts, answers below 500.
import { beforeAll, describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '../generated/operations.js';
import { call, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { contract, flatten, validatorOf, type Schema } from './support/contract.js';
import { uniqueNames } from './support/events.js';
import { inProject, ok, until } from './support/fixtures.js';
import { counter, listedMetric, reportWith } from './support/impact-metrics.js';
import { isFrontendOperation } from './support/operations.js';
import { releasePlans, type TemplateMilestone } from './support/release-plans.js';
import { as, clientAs, USER_PASSWORD, userWithSession, type TestUser } from './support/users.js';

const refName = (schema: Schema): string | undefined => /^#\/components\/schemas\/(.+)$/.exec(String(schema.$ref ?? ''))?.[1];

const validateError = validatorOf({ $ref: '#/components/schemas/Error' });

/** The real resources the paths and bodies name. */
interface Fixtures {
  project: string;
  otherProject: string;
  environment: string;
  flag: string;
  parentFlag: string;
  strategyId: string;
  strategyName: string;
  segmentId: number;
  contextField: string;
  legalValue: string;
  tagType: string;
  tagValue: string;
  /** A user that admins manage (user-admin, project access, group member). */
  userId: number;
  groupId: number;
  /** A custom project role. */
  roleId: number;
  apiToken: string;
  signupToken: string;
  /** The session user: who calls /api/admin/user/*, logout and favourites. */
  user: TestUser;
  /** A personal access token of the session user. */
  patId: number;
  appName: string;
  /** A webhook integration (its receiver address refuses connections: deliveries fail and are retried). */
  addonId: number;
  /** A project whose environment requires change requests, with a draft of one change. */
  changeRequestProject: string;
  changeRequestId: number;
  changeId: number;
  /** A release template of two milestones. */
  templateId: string;
  /** A plan of the template on the flag in the environment, its first milestone running, with a safeguard. */
  planId: string;
  /** The plan's milestone after the running one. */
  milestoneId: string;
  safeguardId: string;
  /** A counter an SDK reported through the client API. */
  metricName: string;
}

const pathParameters: Record<string, (f: Fixtures, path: string) => string | number> = {
  projectId: (f, path) => (path.includes('/change-requests') ? f.changeRequestProject : f.project),
  featureName: (f) => f.flag,
  key: (f) => f.flag,
  parent: (f) => f.parentFlag,
  environment: (f) => f.environment,
  strategyId: (f) => f.strategyId,
  strategyName: (f) => f.strategyName,
  segmentId: (f) => f.segmentId,
  contextField: (f) => f.contextField,
  legalValue: (f) => f.legalValue,
  typeName: (f) => f.tagType,
  type: (f) => f.tagType,
  value: (f) => f.tagValue,
  id: (f, path) => (path.includes('/addons/') ? f.addonId : f.userId),
  userId: (f) => f.userId,
  groupId: (f) => f.groupId,
  roleId: (f) => f.roleId,
  tokenId: (f) => f.patId,
  token: (f, path) => (path.startsWith('/api/admin/api-tokens/') ? f.apiToken : f.signupToken),
  appName: (f) => f.appName,
  changeRequestId: (f) => f.changeRequestId,
  changeId: (f) => f.changeId,
  templateId: (f) => f.templateId,
  planId: (f) => f.planId,
  milestoneId: (f) => f.milestoneId,
  safeguardId: (f) => f.safeguardId,
  metricName: (f) => f.metricName,
};

/** Required fields only; every field with plausible values; every field at an edge the contract accepts. */
type Mode = 'required' | 'full' | 'edge';

/**
 * A value for a place in a body, named `Schema.field` (`Schema.field[]` for array items) or by the
 * component it refers to; undefined to build it from the schema.
 */
type Hint = (f: Fixtures, mode: Mode) => unknown;

const unique = uniqueNames();
const FUTURE = new Date(Date.UTC(2099, 0, 1)).toISOString();
/** A leap second: RFC 3339 accepts it, a JavaScript date cannot hold it. */
const LEAP_SECOND = '2098-12-31T23:59:60Z';
/** One past the largest int4, for integers the contract does not bound. */
const BEYOND_INT4 = 2 ** 31;
/** The largest id the contract accepts, naming no segment. */
const LARGEST_ID = 2 ** 31 - 1;
const NEW_PASSWORD = 'Another-Battery-Staple-7';
/** Nothing listens on port 9 of the loopback: a delivery there fails at once. */
const WEBHOOK_URL = 'http://127.0.0.1:9/hook';

const hints: Record<string, Hint> = {
  Email: () => `${unique('user')}@example.com`,
  FeatureTypeId: () => 'experiment',
  Payload: () => ({ type: 'json', value: '{"color":"blue"}' }),
  RootRoleRef: (_f, mode) => (mode === 'required' ? 3 : 'Editor'),
  ProjectRoleIds: (f) => [f.roleId],
  Constraint: (f, mode) => (mode === 'required' ? { contextName: f.contextField, operator: 'IN', values: [f.legalValue] } : undefined),
  'Constraint.contextName': (f) => f.contextField,
  'Override.contextName': (f) => f.contextField,
  'Tag.type': (f) => f.tagType,
  'Tag.value': () => unique('tag'),
  'CreateTagType.name': () => unique('tag-type'),
  'CreateApiToken.type': (_f, mode) => (mode === 'edge' ? 'FRONTEND' : 'client'),
  'CreateApiToken.environment': (f) => f.environment,
  'CreateApiToken.projects': (f) => [f.project],
  'CreateApiToken.project': (f) => f.project,
  'CreateProject.id': () => unique('project'),
  'CreateProject.environments': (f) => [f.environment],
  'CreateProject.defaultStickiness': () => 'userId',
  'UpdateProject.defaultStickiness': () => 'userId',
  'ProjectEnvironment.environment': (f) => f.environment,
  'CreateEnvironment.name': () => unique('env'),
  'CreateEnvironment.type': () => 'test',
  'UpdateEnvironment.type': () => 'test',
  EnvironmentSortOrder: (f) => ({ [f.environment]: 5 }),
  'CreateFeature.name': () => unique('flag'),
  'UpdateFeature.name': (f) => f.flag,
  'ChangeProject.newProjectId': (f) => f.otherProject,
  'StaleFeatures.features': (f) => [f.flag],
  'FeatureNames.features': (f) => [f.flag],
  'CreateFeatureStrategy.name': (f, mode) => (mode === 'required' ? f.strategyName : 'flexibleRollout'),
  'CreateFeatureStrategy.parameters': (_f, mode) => (mode === 'required' ? undefined : { rollout: 50, stickiness: 'userId', groupId: 'checkout' }),
  'CreateFeatureStrategy.segments': (f, mode) => (mode === 'edge' ? [LARGEST_ID] : [f.segmentId]),
  'StrategyVariant.stickiness': () => 'userId',
  'Variant.stickiness': () => 'userId',
  'StrategySortOrder[].id': (f) => f.strategyId,
  'UpsertSegment.name': () => unique('segment'),
  'UpsertSegment.project': (f) => f.project,
  'UpsertStrategy.name': () => unique('strategy'),
  'CreateDependency.feature': (f) => f.parentFlag,
  'CreateContextField.name': () => unique('field'),
  'ContextFieldNameCheck.name': () => unique('field'),
  'UpdateContextField.name': (f) => f.contextField,
  'LegalValue.value': () => unique('value'),
  'LoginBody.username': (f) => f.user.email,
  'LoginBody.password': () => USER_PASSWORD,
  'ChangePassword.password': () => NEW_PASSWORD,
  // The contract's description: a user needs an email or a username besides the root role.
  CreateUser: (_f, mode) => (mode === 'required' ? { email: `${unique('user')}@example.com`, rootRole: 3 } : undefined),
  'CreateUser.username': () => unique('user'),
  'CreateUser.password': () => NEW_PASSWORD,
  'SignUp.username': () => unique('user'),
  'SignUp.password': () => NEW_PASSWORD,
  'UpsertRole.name': () => unique('role'),
  'UpsertRole.type': () => 'custom',
  'UpsertRole.permissions': (f, mode) => (mode === 'required' ? [{ name: 'UPDATE_FEATURE' }] : [{ name: 'UPDATE_FEATURE_STRATEGY', environment: f.environment }]),
  'UpsertGroup.name': () => unique('group'),
  'UpsertGroup.rootRole': () => 3,
  'UpsertGroup.users[].user.id': (f) => f.userId,
  'AddProjectAccess.users': (f) => [f.userId],
  'AddProjectAccess.groups': (f) => [f.groupId],
  'SetOidcSettings.defaultRootRoleId': () => 3,
  'UpsertAddon.provider': () => 'webhook',
  'UpsertAddon.parameters': (_f, mode) =>
    mode === 'required'
      ? { url: WEBHOOK_URL }
      : { url: WEBHOOK_URL, contentType: 'application/json', authorization: 'Bearer x1', customHeaders: '{"X-Team": "checkout"}', bodyTemplate: '{"type": "{{event.type}}"}' },
  'UpsertAddon.events': () => ['feature-created'],
  'UpsertAddon.projects': (f) => [f.project],
  'UpsertAddon.environments': (f) => [f.environment],
  'PlaygroundRequest.environment': (f) => f.environment,
  'PlaygroundRequest.projects': (f) => [f.project],
  'AdvancedPlaygroundRequest.environments': (f) => [f.environment, 'production'],
  'AdvancedPlaygroundRequest.projects': (f) => [f.project],
  'UpsertReleasePlanTemplate.name': () => unique('template'),
  'UpsertReleasePlanMilestoneStrategy.name': () => 'flexibleRollout',
  'UpsertReleasePlanMilestoneStrategy.strategyName': () => 'flexibleRollout',
  'UpsertReleasePlanMilestoneStrategy.parameters': (_f, mode) => (mode === 'required' ? undefined : { rollout: 50, stickiness: 'userId', groupId: 'checkout' }),
  'UpsertReleasePlanMilestoneStrategy.segments': (f, mode) => (mode === 'edge' ? [LARGEST_ID] : [f.segmentId]),
  'AddReleasePlan.templateId': (f) => f.templateId,
  'SafeguardImpactMetric.metricName': (f) => f.metricName,
};

const patches = (byMode: Record<Mode, object[]>): Hint => (_f, mode) => byMode[mode];

const operationHints: Partial<Record<OperationId, Record<string, Hint>>> = {
  updateStrategy: { 'UpsertStrategy.name': (f) => f.strategyName },
  // Disabling password sign-in would lock this file's users out of the sessions later operations use; it has tests of its own.
  setPasswordAuthSettings: { 'PasswordAuthSettings.disabled': () => false },
  patchFeature: {
    JsonPatch: patches({
      required: [{ op: 'remove', path: '/description' }],
      full: [{ op: 'replace', path: '/description', value: 'Patched' }, { op: 'copy', from: '/stale', path: '/impressionData' }],
      edge: [{ op: 'replace', path: '/description', value: 'x'.repeat(1000) }, { op: 'replace', path: '/type', value: 'kill-switch' }],
    }),
  },
  patchFeatureStrategy: {
    JsonPatch: patches({
      required: [{ op: 'remove', path: '/title' }],
      full: [{ op: 'replace', path: '/disabled', value: false }, { op: 'copy', from: '/title', path: '/title' }],
      edge: [{ op: 'add', path: '/segments/-', value: LARGEST_ID }],
    }),
  },
  patchEnvironmentVariants: {
    JsonPatch: patches({
      required: [{ op: 'remove', path: '/1' }],
      full: [{ op: 'add', path: '/-', value: { name: 'yellow', weightType: 'variable' } }, { op: 'move', from: '/0', path: '/1' }],
      edge: [{ op: 'replace', path: '/1', value: { name: 'green', weight: 1000, weightType: 'fix' } }, { op: 'remove', path: '/0' }],
    }),
  },
};

function stringFor(schema: Schema, mode: Mode, name: string): string {
  if (schema.format === 'date-time') return mode === 'edge' ? LEAP_SECOND : FUTURE;
  if (schema.format === 'uri') return 'https://login.example.com/.well-known/openid-configuration';
  const longest = mode === 'edge' && schema.maxLength ? ['x'.repeat(schema.maxLength)] : [];
  const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
  const fitting = [...longest, 'x1', 'x-1', '#00aa00'].find((candidate) => !pattern || pattern.test(candidate));
  if (fitting === undefined) throw new Error(`no value for the pattern ${schema.pattern} at ${name}`);
  return fitting;
}

/** A body for the schema in the mode; places with a hint get the hint's value. */
function build(input: Schema, mode: Mode, place: string, hintOf: (key: string) => Hint | undefined, f: Fixtures): unknown {
  const component = refName(input);
  for (const key of [place, component]) {
    const hinted = key ? hintOf(key)?.(f, mode) : undefined;
    if (hinted !== undefined) return hinted;
  }
  const name = component ?? place;
  const schema = flatten(input);
  const child = (part: Schema, at: string) => build(part, mode, at, hintOf, f);
  if (schema.oneOf) return child(schema.oneOf[0], name);
  if ('const' in schema) return schema.const;
  if (schema.enum) return mode === 'edge' ? schema.enum.at(-1) : schema.enum[0];
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.items ? 'array' : 'object')];
  switch (types.find((x) => x !== 'null') ?? 'null') {
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const all = Object.keys(properties);
      const required: string[] = schema.required ?? [];
      const names = mode === 'required' ? all.filter((p, i) => required.includes(p) || i < (schema.minProperties ?? 0) - required.length) : all;
      const value = Object.fromEntries(names.map((p) => [p, child(properties[p]!, `${name}.${p}`)]));
      const wanted = mode !== 'required' && all.length === 0 ? 1 : (schema.minProperties ?? 0);
      if (Object.keys(value).length < wanted && typeof schema.additionalProperties === 'object') {
        value.x1 = child(schema.additionalProperties, `${name}.x1`);
      }
      return value;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => child(schema.items ?? { type: 'string' }, `${name}[]`));
    case 'integer':
    case 'number':
      return mode === 'edge' ? (schema.maximum ?? BEYOND_INT4) : Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return mode !== 'required';
    case 'null':
      return null;
    default:
      return stringFor(schema, mode, name);
  }
}

/** Whether a schema declares a field a body may leave out, at any depth. */
function hasOptionalFields(input: Schema, seen = new Set<Schema>()): boolean {
  const schema = flatten(input);
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (schema.oneOf) return schema.oneOf.some((part: Schema) => hasOptionalFields(part, seen));
  if (schema.items) return hasOptionalFields(schema.items, seen);
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  if (Object.keys(properties).some((p) => !required.includes(p))) return true;
  if (typeof schema.additionalProperties === 'object' && Object.keys(properties).length === 0) return true;
  return Object.values(properties).some((part) => hasOptionalFields(part, seen));
}

interface Operation {
  id: OperationId;
  method: string;
  path: string;
  public: boolean;
  bodySchema?: Schema;
}

const everyOperation: Operation[] = (Object.entries(operationTable) as [OperationId, (typeof operationTable)[OperationId]][]).map(([id, op]) => ({
  id,
  method: op.method,
  path: op.path,
  public: op.public,
  bodySchema: contract.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema,
}));
const onClientApi = (op: Operation) => op.path.startsWith('/api/client/');
const operations = everyOperation.filter((op) => !onClientApi(op));

const emptyBodyOf = (op: Operation) => (flatten(op.bodySchema!).type === 'array' ? [] : {});
const acceptsEmptyBody = (op: Operation) => validatorOf(op.bodySchema!)(emptyBodyOf(op)) as boolean;

type Variant = 'no body' | 'required fields' | 'empty body' | 'every field' | 'edge values' | 'read after the writes';
type Call = [title: string, op: Operation, variant: Variant];

const calls = (variant: Variant, ops: Operation[]): Call[] => ops.map((op) => [`${op.method} ${op.path} (${op.id}) – ${variant}`, op, variant]);
const withBody = operations.filter((op) => op.bodySchema);
const noBodyCalls = calls('no body', operations.filter((op) => !op.bodySchema));
const requiredFieldCalls = calls('required fields', withBody.filter((op) => !acceptsEmptyBody(op)));
const emptyBodyCalls = calls('empty body', withBody.filter(acceptsEmptyBody));
const everyFieldCalls = calls('every field', withBody.filter((op) => hasOptionalFields(op.bodySchema!)));
const edgeValueCalls = calls('edge values', withBody);
const rereadCalls = calls('read after the writes', operations.filter((op) => op.method === 'GET'));

/** Operations only a user can call: they answer 400 to API tokens. */
const isUserOperation = (op: Operation) =>
  op.path === '/api/admin/user' || op.path.startsWith('/api/admin/user/') || op.path.endsWith('/favorites') || op.id === 'logout';

let app: TestApp;
let fixtures: Fixtures;
/** A client token, for the client API's operations. */
let clientToken: string;
/** A frontend token of the fixtures' environment and project, for the frontend API's operations. */
let frontendToken: string;

/** The admin token's typed client (the app starts in beforeAll). */
const admin = () => app.admin;
const plans = releasePlans(() => app, unique);
const ofFlag = (projectId: string, featureName: string) => ({ params: { path: { projectId, featureName } } });

/** Creates real resources through the admin API, as the rest of the world would. */
const create = {
  async environment(): Promise<string> {
    return (await ok(admin().POST('/api/admin/environments', { body: { name: unique('env'), type: 'test' } }))).name;
  },
  async project(fields: { environments?: string[] } = {}): Promise<string> {
    return (await ok(admin().POST('/api/admin/projects', { body: { id: unique('project'), name: 'Checkout', ...fields } }))).id;
  },
  async tagType(): Promise<string> {
    const name = unique('tag-type');
    await ok(admin().POST('/api/admin/tag-types', { body: { name, description: 'Team', color: '#00aa00' } }));
    await ok(admin().POST('/api/admin/tags', { body: { type: name, value: unique('tag') } }));
    return name;
  },
  async contextField(): Promise<{ name: string; legalValue: string }> {
    const name = unique('field');
    const legalValue = unique('value');
    await ok(admin().POST('/api/admin/context', { body: { name, description: 'Region', legalValues: [{ value: legalValue, description: 'Europe' }] } }));
    return { name, legalValue };
  },
  async legalValue(f: Fixtures): Promise<string> {
    const value = unique('value');
    await ok(admin().POST('/api/admin/context/{contextField}/legal-values', { params: { path: { contextField: f.contextField } }, body: { value, description: 'Asia' } }));
    return value;
  },
  async segment(f: Pick<Fixtures, 'contextField' | 'legalValue'>, project?: string): Promise<number> {
    const constraints = [{ contextName: f.contextField, operator: 'IN' as const, values: [f.legalValue] }];
    return (await ok(admin().POST('/api/admin/segments', { body: { name: unique('segment'), constraints, ...(project && { project }) } }))).id;
  },
  async strategyDefinition(): Promise<string> {
    const name = unique('strategy');
    await ok(admin().POST('/api/admin/strategies', { body: { name, title: 'Beta users', parameters: [{ name: 'percentage', type: 'percentage', required: true }] } }));
    return name;
  },
  /** A strategy with a constraint, a segment and a variant on the flag in the environment. */
  async strategy(f: Pick<Fixtures, 'contextField' | 'legalValue' | 'segmentId'>, project: string, flag: string, environment: string): Promise<string> {
    const strategy = await ok(
      admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies', {
        params: { path: { projectId: project, featureName: flag, environment } },
        body: {
          name: 'flexibleRollout',
          title: 'Half of Europe',
          parameters: { rollout: '50' },
          constraints: [{ contextName: f.contextField, operator: 'IN', values: [f.legalValue] }],
          variants: [{ name: 'blue', weight: 1000, weightType: 'fix', payload: { type: 'string', value: 'blue' } }],
          segments: [f.segmentId],
        },
      }),
    );
    return strategy.id;
  },
  /** An active flag with a tag, a strategy, variants and an enabled environment. */
  async flag(f: Pick<Fixtures, 'project' | 'environment' | 'tagType' | 'contextField' | 'legalValue' | 'segmentId'>, project = f.project): Promise<{ name: string; strategyId: string; tagValue: string }> {
    const name = unique('flag');
    const tagValue = unique('tag');
    await ok(admin().POST('/api/admin/projects/{projectId}/features', { ...inProject(project), body: { name, type: 'release', description: 'New checkout', tags: [{ type: f.tagType, value: tagValue }] } }));
    const strategyId = await create.strategy(f, project, name, f.environment);
    const environmentOf = { params: { path: { projectId: project, featureName: name, environment: f.environment } } };
    await ok(
      admin().PUT('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants', {
        ...environmentOf,
        body: [{ name: 'red' }, { name: 'green', weight: 200, weightType: 'fix' }],
      }),
    );
    await ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', environmentOf));
    return { name, strategyId, tagValue };
  },
  async archivedFlag(f: Fixtures, project = f.project): Promise<string> {
    const { name } = await create.flag(f, project);
    await ok(admin().DELETE('/api/admin/projects/{projectId}/features/{featureName}', ofFlag(project, name)));
    return name;
  },
  async tag(f: Fixtures): Promise<string> {
    const value = unique('tag');
    await ok(admin().POST('/api/admin/features/{featureName}/tags', { params: { path: { featureName: f.flag } }, body: { type: f.tagType, value } }));
    return value;
  },
  async user(rootRole: 'Viewer' | 'Editor' | 'Admin'): Promise<TestUser> {
    return userWithSession(app, rootRole);
  },
  async group(users: number[]): Promise<number> {
    return (await ok(admin().POST('/api/admin/groups', { body: { name: unique('group'), rootRole: 3, users: users.map((id) => ({ user: { id } })) } }))).id;
  },
  async role(): Promise<number> {
    return (await ok(admin().POST('/api/admin/roles', { body: { name: unique('role'), type: 'custom', permissions: [{ name: 'UPDATE_FEATURE' }] } }))).id;
  },
  async apiToken(environment: string, project: string, type: 'client' | 'frontend' = 'client'): Promise<string> {
    return (await ok(admin().POST('/api/admin/api-tokens', { body: { tokenName: unique('token'), type, environment, projects: [project] } }))).secret;
  },
  async addon(): Promise<number> {
    return (await ok(admin().POST('/api/addons', { body: { provider: 'webhook', enabled: true, events: ['feature-created'], parameters: { url: WEBHOOK_URL } } }))).id;
  },
  /** A project requiring change requests in the environment, with a draft (by the admin token) turning its flag on. */
  async changeRequest(environment: string): Promise<Pick<Fixtures, 'changeRequestProject' | 'changeRequestId' | 'changeId'>> {
    const project = await create.project();
    const flag = unique('flag');
    const inEnvironment = { params: { path: { projectId: project, environment } } };
    await ok(admin().POST('/api/admin/projects/{projectId}/features', { ...inProject(project), body: { name: flag } }));
    await ok(admin().PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', { ...inEnvironment, body: { changeRequestsEnabled: true } }));
    const draft = await ok(
      admin().POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
        ...inEnvironment,
        body: { feature: flag, action: 'updateEnabled', payload: { enabled: true } },
      }),
    );
    return { changeRequestProject: project, changeRequestId: draft.id, changeId: draft.features[0]!.changes[0]!.id };
  },
  /** A release template: half the users for an hour, then everyone. */
  async template(): Promise<string> {
    const milestones: TemplateMilestone[] = [
      { name: 'Half', transitionCondition: { intervalMinutes: 60 }, strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default' } }] },
      { name: 'Everyone', strategies: [{ name: 'default' }] },
    ];
    return (await plans.createTemplate(milestones)).id;
  },
  /**
   * A plan of the template on the flag in the environment: just added, with its first milestone running, or
   * with it paused; `milestoneId` is the milestone that would come next (the first, for a plan just added).
   */
  async plan(f: Pick<Fixtures, 'project' | 'environment' | 'templateId'>, flag: string, state: 'added' | 'running' | 'paused'): Promise<Pick<Fixtures, 'flag' | 'planId' | 'milestoneId'>> {
    const place = { projectId: f.project, featureName: flag, environment: f.environment };
    const plan = await plans.addPlan(place, f.templateId);
    const [first, second] = plan.milestones.map((milestone) => milestone.id);
    if (state !== 'added') await ok(plans.start(place, plan.id, first!), 200);
    if (state === 'paused') await ok(plans.pause(place, plan.id), 200);
    return { flag, planId: plan.id, milestoneId: state === 'added' ? first! : second! };
  },
  /** A safeguard of the plan that holds unless the app's metric counts more than a million in an hour. */
  async safeguard(f: Pick<Fixtures, 'project' | 'environment' | 'flag' | 'planId' | 'metricName' | 'appName'>): Promise<string> {
    const path = { projectId: f.project, featureName: f.flag, environment: f.environment, planId: f.planId };
    const body = {
      impactMetric: { metricName: f.metricName, timeRange: 'hour' as const, aggregationMode: 'count' as const, labelSelectors: { appName: [f.appName] } },
      triggerCondition: { operator: '>' as const, threshold: 1_000_000 },
    };
    return (await ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/release-plans/{planId}/safeguards', { params: { path }, body }), 201)).id;
  },
  /** A counter reported through the client API with the token, once the service lists it. */
  async impactMetric(token: string, appName: string): Promise<string> {
    const name = unique('checkout_errors').replaceAll('-', '_');
    await ok(app.clientWith(token).POST('/api/client/metrics', { body: reportWith(appName, [counter(name, [{ value: 1, labels: { route: '/pay' } }])]) }));
    await until(`the impact metric ${name} listed`, () => listedMetric(app, name), (metric) => metric !== undefined);
    return name;
  },
  async signupToken(): Promise<string> {
    return (await ok(admin().POST('/api/admin/invite-link/tokens', { body: { name: unique('invite'), expiresAt: FUTURE } }))).secret;
  },
  async personalAccessToken(user: TestUser): Promise<number> {
    return (await ok(clientAs(app, user).POST('/api/admin/user/tokens', { body: { description: 'CI', expiresAt: FUTURE } }))).id;
  },
  /** Marks the flag (or else the project) as the user's favourite. */
  async favorite(user: TestUser, project: string, flag?: string): Promise<void> {
    const client = clientAs(app, user);
    if (flag) await ok(client.POST('/api/admin/projects/{projectId}/features/{featureName}/favorites', ofFlag(project, flag)));
    else await ok(client.POST('/api/admin/projects/{projectId}/favorites', inProject(project)));
  },
  /** Gives the custom role in the project to the users and groups. */
  async access(project: string, roleId: number, who: { users?: number[]; groups?: number[] }): Promise<void> {
    await ok(admin().POST('/api/admin/projects/{projectId}/access', { ...inProject(project), body: { roles: [roleId], ...who } }));
  },
  /** A user with a session, a personal access token, favourites, a group and a role in the project. */
  async busyUser(f: Fixtures): Promise<TestUser> {
    const user = await create.user('Editor');
    await create.personalAccessToken(user);
    await create.favorite(user, f.project, f.flag);
    await create.favorite(user, f.project);
    await create.access(f.project, f.roleId, { users: [user.id] });
    await create.group([user.id]);
    return user;
  },
  async groupWithAccess(f: Fixtures): Promise<number> {
    const groupId = await create.group([f.userId]);
    await create.access(f.project, f.roleId, { groups: [groupId] });
    return groupId;
  },
};

/**
 * Fixtures of their own for operations that destroy or reshape what they meet, created just before the
 * call so that every call meets resources that exist.
 */
const freshFixtures: Partial<Record<OperationId, (f: Fixtures) => Promise<Partial<Fixtures>>>> = {
  deleteProject: async (f) => {
    const project = await create.project();
    const segmentId = await create.segment(f, project);
    const flag = await create.flag({ ...f, segmentId }, project);
    await ok(admin().DELETE('/api/admin/projects/{projectId}/features/{featureName}', ofFlag(project, flag.name)));
    await create.access(project, f.roleId, { users: [f.userId], groups: [f.groupId] });
    await create.favorite(f.user, project);
    return { project };
  },
  addEnvironmentToProject: async () => ({ project: await create.project({ environments: [] }) }),
  removeEnvironmentFromProject: async (f) => {
    const environment = await create.environment();
    await create.strategy(f, f.project, f.flag, environment);
    return { environment };
  },
  deleteEnvironment: async () => ({ environment: await create.environment() }),
  disableEnvironment: async () => ({ environment: await create.environment() }),
  archiveFeature: async (f) => ({ flag: (await create.flag(f)).name }),
  archiveFeatures: async (f) => ({ flag: (await create.flag(f)).name }),
  changeFeatureProject: async (f) => ({ flag: (await create.flag(f)).name }),
  patchEnvironmentVariants: async (f) => ({ flag: (await create.flag(f)).name }),
  reviveFeature: async (f) => ({ flag: await create.archivedFlag(f) }),
  reviveFeatures: async (f) => ({ flag: await create.archivedFlag(f) }),
  deleteArchivedFeature: async (f) => ({ flag: await create.archivedFlag(f) }),
  deleteFeatures: async (f) => ({ flag: await create.archivedFlag(f) }),
  uncompleteFeature: async (f) => {
    const { name } = await create.flag(f);
    await ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', { ...ofFlag(f.project, name), body: { status: 'kept', statusValue: 'blue' } }));
    return { flag: name };
  },
  deleteDependency: async (f) => {
    const parent = await create.flag(f);
    const child = await create.flag(f);
    await ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { ...ofFlag(f.project, child.name), body: { feature: parent.name, variants: ['red'] } }));
    return { flag: child.name, parentFlag: parent.name };
  },
  deleteFeatureStrategy: async (f) => ({ strategyId: await create.strategy(f, f.project, f.flag, f.environment) }),
  deleteStrategy: async () => ({ strategyName: await create.strategyDefinition() }),
  deleteSegment: async (f) => ({ segmentId: await create.segment(f) }),
  updateSegment: async (f) => {
    const segmentId = await create.segment(f);
    await create.strategy({ ...f, segmentId }, f.project, f.flag, f.environment);
    return { segmentId };
  },
  deleteContextField: async () => ({ contextField: (await create.contextField()).name }),
  deleteContextFieldLegalValue: async (f) => ({ legalValue: await create.legalValue(f) }),
  deleteTag: async (f) => ({ tagValue: await create.tag(f) }),
  removeFeatureTag: async (f) => ({ tagValue: await create.tag(f) }),
  deleteTagType: async () => ({ tagType: await create.tagType() }),
  deleteUser: async (f) => ({ userId: (await create.busyUser(f)).id }),
  changeUserPassword: async (f) => ({ userId: (await create.busyUser(f)).id }),
  removeProjectUserRoles: async (f) => ({ userId: (await create.busyUser(f)).id }),
  removeProjectGroupRoles: async (f) => ({ groupId: await create.groupWithAccess(f) }),
  deleteGroup: async (f) => ({ groupId: await create.groupWithAccess(f) }),
  deleteRole: async () => ({ roleId: await create.role() }),
  deleteApiToken: async (f) => ({ apiToken: await create.apiToken(f.environment, f.project) }),
  updateSignupToken: async () => ({ signupToken: await create.signupToken() }),
  login: async () => ({ user: await create.user('Viewer') }),
  logout: async () => ({ user: await create.user('Viewer') }),
  changeOwnPassword: async () => ({ user: await create.user('Viewer') }),
  deletePersonalAccessToken: async (f) => ({ patId: await create.personalAccessToken(f.user) }),
  unfavoriteFeature: async (f) => {
    await create.favorite(f.user, f.project, f.flag);
    return {};
  },
  unfavoriteProject: async (f) => {
    await create.favorite(f.user, f.project);
    return {};
  },
  deleteAddon: async () => ({ addonId: await create.addon() }),
  discardChangeRequestChange: async (f) => create.changeRequest(f.environment),
  updateChangeRequestState: async (f) => create.changeRequest(f.environment),
  deleteReleasePlanTemplate: async () => ({ templateId: await create.template() }),
  addReleasePlan: async (f) => ({ flag: (await create.flag(f)).name }),
  deleteReleasePlan: async (f) => create.plan(f, (await create.flag(f)).name, 'running'),
  startReleasePlanMilestone: async (f) => create.plan(f, (await create.flag(f)).name, 'running'),
  pauseReleasePlan: async (f) => create.plan(f, (await create.flag(f)).name, 'running'),
  resumeReleasePlan: async (f) => create.plan(f, (await create.flag(f)).name, 'paused'),
  deleteReleasePlanSafeguard: async (f) => ({ safeguardId: await create.safeguard(f) }),
  deleteOidcSettings: async () => {
    await ok(admin().POST('/api/admin/auth/oidc/settings', { body: { enabled: true, clientId: 'flags', secret: 'oidc-secret', discoverUrl: 'https://login.example.com' } }));
    return {};
  },
};

function urlOf(op: Operation, f: Fixtures): string {
  return op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(String(pathParameters[name]!(f, op.path))));
}

const modeOf: Partial<Record<Variant, Mode>> = { 'required fields': 'required', 'every field': 'full', 'edge values': 'edge' };

function bodyOf(op: Operation, variant: Variant, f: Fixtures): unknown {
  if (!op.bodySchema) return undefined;
  if (variant === 'empty body') return emptyBodyOf(op);
  const hintOf = (key: string) => operationHints[op.id]?.[key] ?? hints[key];
  return build(op.bodySchema, modeOf[variant]!, '', hintOf, f);
}

/** The body as JSON, with long strings cut short. */
const shown = (body: unknown) =>
  JSON.stringify(body, (_key, value) => (typeof value === 'string' && value.length > 40 ? `${value.slice(0, 8)}…(${value.length} characters)` : value));

/** The stack of the error the service logged for the request, if it logged one. */
function loggedError(response: RawResponse): string {
  const requestId = response.headers['x-request-id'];
  for (const line of app.logs) {
    const entry = JSON.parse(line);
    if (entry.reqId === requestId && entry.err) return `\n${entry.err.stack}`;
  }
  return '';
}

async function expectNoServerError(_title: string, op: Operation, variant: Variant) {
  const f = { ...fixtures, ...(await freshFixtures[op.id]?.(fixtures)) };
  const url = urlOf(op, f);
  const body = bodyOf(op, variant, f);
  if (op.bodySchema) {
    const validate = validatorOf(op.bodySchema);
    expect(validate(body), `the contract refuses ${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  const credential = isFrontendOperation(op) ? { token: frontendToken } : isUserOperation(op) ? as(f.user) : op.public ? { token: null } : {};
  const response = await call(app, op.method, url, { ...credential, ...(body !== undefined && { body: body as object }) });
  expect(response.status, `${op.method} ${url} ${shown(body)} → ${response.text}${loggedError(response)}`).toBeLessThan(500);
  if (response.status >= 400) expect(validateError(response.json), `not an Error object: ${response.text}`).toBe(true);
}

/** Where each string of a body is, as the field names the service's messages use (`constraints.0.values.0`). */
function stringPlaces(value: unknown, at: string[] = []): string[][] {
  if (typeof value === 'string') return [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => stringPlaces(inner, [...at, key]));
}

/** The body with `suffix` appended to the string at `place`. */
function withSuffix(value: unknown, place: string[], suffix: string): unknown {
  if (place.length === 0) return `${value as string}${suffix}`;
  const [key, ...rest] = place as [string, ...string[]];
  if (Array.isArray(value)) return value.map((item, i) => (String(i) === key ? withSuffix(item, rest, suffix) : item));
  return { ...(value as object), [key]: withSuffix((value as Record<string, unknown>)[key], rest, suffix) };
}

/** Operations with a body holding text, client API included, each with its body and every place of text in it. */
const textBodyOperations = everyOperation
  .filter((op) => op.bodySchema)
  .map((op): [string, Operation] => [`${op.method} ${op.path} (${op.id})`, op]);

/** A lone high surrogate in each text field of the body, one request per field: each is refused with 400 naming the field. */
async function expectLoneSurrogatesRefused(_title: string, op: Operation) {
  const f = { ...fixtures, ...(await freshFixtures[op.id]?.(fixtures)) };
  const url = urlOf(op, f);
  const places = stringPlaces(bodyOf(op, 'every field', f));
  const credential = onClientApi(op)
    ? { token: clientToken }
    : isFrontendOperation(op)
      ? { token: frontendToken }
      : isUserOperation(op)
        ? as(f.user)
        : op.public
          ? { token: null }
          : {};
  const refusedWithoutField: string[] = [];
  for (const place of places) {
    // Built again for each field: names that must be unique stay unique.
    const body = withSuffix(bodyOf(op, 'every field', f), place, '\ud800');
    const response = await call(app, op.method, url, { ...credential, body: body as object });
    const field = ['body', ...place].join('.');
    expect(response.status, `${op.method} ${url} with a lone surrogate in ${field} → ${response.text}${loggedError(response)}`).toBeLessThan(500);
    expect(validateError(response.json), `not an Error object: ${response.text}`).toBe(true);
    if (response.status !== 400 || !String(response.json.message).includes(`${field} `)) refusedWithoutField.push(`${field}: ${response.status} ${response.text}`);
  }
  expect(refusedWithoutField).toEqual([]);
}

beforeAll(async () => {
  app = await startTestApp();
  const environment = await create.environment();
  const project = await create.project();
  const otherProject = await create.project();
  const tagType = await create.tagType();
  const { name: contextField, legalValue } = await create.contextField();
  const segmentId = await create.segment({ contextField, legalValue });
  const strategyName = await create.strategyDefinition();
  const member = await create.user('Viewer');
  const user = await create.user('Admin');
  const groupId = await create.group([member.id]);
  const roleId = await create.role();
  const base = {
    project,
    otherProject,
    environment,
    strategyName,
    segmentId,
    contextField,
    legalValue,
    tagType,
    userId: member.id,
    groupId,
    roleId,
    user,
    apiToken: await create.apiToken(environment, project),
    signupToken: await create.signupToken(),
    patId: await create.personalAccessToken(user),
    appName: unique('app'),
    addonId: await create.addon(),
    ...(await create.changeRequest(environment)),
  };
  const parent = await create.flag(base);
  const flag = await create.flag(base);
  clientToken = await create.apiToken(environment, project);
  const templateId = await create.template();
  const metricName = await create.impactMetric(clientToken, base.appName);
  const plan = await create.plan({ ...base, templateId }, flag.name, 'running');
  const planFixtures = { ...base, ...plan, templateId, metricName };
  fixtures = {
    ...planFixtures,
    safeguardId: await create.safeguard(planFixtures),
    strategyId: flag.strategyId,
    tagValue: flag.tagValue,
    parentFlag: parent.name,
  };
  await ok(admin().POST('/api/admin/projects/{projectId}/features/{featureName}/dependencies', { ...ofFlag(project, flag.name), body: { feature: parent.name, variants: ['red'] } }));
  await ok(
    admin().POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
      params: { path: { projectId: project, featureName: flag.name, environment: 'production' } },
    }),
  );
  await create.access(project, roleId, { users: [member.id], groups: [groupId] });
  frontendToken = await create.apiToken(environment, project, 'frontend');
  const registration = { appName: fixtures.appName, instanceId: 'i-1', interval: 10_000, started: new Date().toISOString(), strategies: ['flexibleRollout'] };
  await ok(app.clientWith(clientToken).POST('/api/client/register', { body: registration }));
});

describe('the operations to call', () => {
  it('has a fixture for every path parameter', () => {
    const names = operations.flatMap((op) => [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!));
    expect(names.filter((name) => !(name in pathParameters))).toEqual([]);
  });

  it('calls every operation outside the client API', () => {
    const called = new Set([...noBodyCalls, ...requiredFieldCalls, ...emptyBodyCalls].map(([, op]) => op.id));
    expect(operations.filter((op) => !called.has(op.id)).map((op) => op.id)).toEqual([]);
    expect(operations.length).toBeGreaterThan(100);
  });
});

describe('no server error on resources that exist', () => {
  it.each(noBodyCalls)('%s', expectNoServerError);
  it.each(requiredFieldCalls)('%s', expectNoServerError);
  it.each(emptyBodyCalls)('%s', expectNoServerError);
  it.each(everyFieldCalls)('%s', expectNoServerError);
  it.each(edgeValueCalls)('%s', expectNoServerError);
  it.each(rereadCalls)('%s', expectNoServerError);
});

describe('a lone surrogate in any text field', () => {
  it('reaches every operation with text in its body, client API included', () => {
    const withText = textBodyOperations.filter(([, op]) => stringPlaces(bodyOf(op, 'every field', fixtures)).length > 0).map(([, op]) => op.id);
    expect(withText).toEqual(expect.arrayContaining(['createTagType', 'createSegment', 'registerClient', 'reportClientMetrics', 'setOidcSettings']));
  });

  it.each(textBodyOperations)('%s: 400 naming the field, for each text field', expectLoneSurrogatesRefused);
});
