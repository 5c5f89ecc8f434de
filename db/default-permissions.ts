// The permission catalogue and built-in roles, with the ids and display names Unleash uses.
import type { components } from '../generated/api.js';

/** The contract's closed list: a misspelt permission here fails to compile. */
type PermissionName = components['schemas']['PermissionName'];

const root: [number, PermissionName, string][] = [
  [1, 'ADMIN', 'Admin'],
  [3, 'CREATE_STRATEGY', 'Create activation strategies'],
  [4, 'CREATE_ADDON', 'Create addons'],
  [5, 'DELETE_ADDON', 'Delete addons'],
  [6, 'UPDATE_ADDON', 'Update addons'],
  [9, 'UPDATE_APPLICATION', 'Update applications'],
  [10, 'UPDATE_TAG_TYPE', 'Update tag types'],
  [11, 'DELETE_TAG_TYPE', 'Delete tag types'],
  [12, 'CREATE_PROJECT', 'Create projects'],
  [15, 'UPDATE_STRATEGY', 'Update strategies'],
  [16, 'DELETE_STRATEGY', 'Delete strategies'],
  [17, 'UPDATE_CONTEXT_FIELD', 'Update context fields'],
  [18, 'CREATE_CONTEXT_FIELD', 'Create context fields'],
  [19, 'DELETE_CONTEXT_FIELD', 'Delete context fields'],
  [20, 'READ_ROLE', 'Read roles'],
  [31, 'CREATE_SEGMENT', 'Create segments'],
  [32, 'UPDATE_SEGMENT', 'Edit segments'],
  [33, 'DELETE_SEGMENT', 'Delete segments'],
  [50, 'CREATE_CLIENT_API_TOKEN', 'Create Backend tokens'],
  [51, 'UPDATE_CLIENT_API_TOKEN', 'Update Backend tokens'],
  [52, 'DELETE_CLIENT_API_TOKEN', 'Delete Backend tokens'],
  [53, 'READ_CLIENT_API_TOKEN', 'Read Backend tokens'],
  [54, 'CREATE_FRONTEND_API_TOKEN', 'Create Frontend tokens'],
  [55, 'UPDATE_FRONTEND_API_TOKEN', 'Update Frontend tokens'],
  [56, 'DELETE_FRONTEND_API_TOKEN', 'Delete Frontend tokens'],
  [57, 'READ_FRONTEND_API_TOKEN', 'Read Frontend tokens'],
  [59, 'CREATE_TAG_TYPE', 'Create tag types'],
  [70, 'RELEASE_PLAN_TEMPLATE_CREATE', 'Create release plan template'],
  [71, 'RELEASE_PLAN_TEMPLATE_UPDATE', 'Update release plan template'],
  [72, 'RELEASE_PLAN_TEMPLATE_DELETE', 'Delete release plan template'],
  [73, 'UPDATE_MAINTENANCE_MODE', 'Change maintenance mode state'],
  [74, 'UPDATE_INSTANCE_BANNERS', 'Change instance banners'],
  [75, 'UPDATE_AUTH_CONFIGURATION', 'Change authentication settings (SSO)'],
  [76, 'READ_LOGS', 'Read instance logs and login history'],
  [77, 'UPDATE_CORS', 'Update CORS settings'],
];

const project: [number, PermissionName, string][] = [
  [2, 'CREATE_FEATURE', 'Create feature flags'],
  [7, 'UPDATE_FEATURE', 'Update feature flags'],
  [8, 'DELETE_FEATURE', 'Delete feature flags'],
  [13, 'UPDATE_PROJECT', 'Update project'],
  [14, 'DELETE_PROJECT', 'Delete project'],
  [29, 'UPDATE_FEATURE_VARIANTS', 'Create/edit variants'],
  [30, 'MOVE_FEATURE_TOGGLE', 'Change feature flag project'],
  [42, 'READ_PROJECT_API_TOKEN', 'Read api tokens for a specific project'],
  [43, 'CREATE_PROJECT_API_TOKEN', 'Create api tokens for a specific project'],
  [44, 'DELETE_PROJECT_API_TOKEN', 'Delete api tokens for a specific project'],
  [45, 'UPDATE_PROJECT_SEGMENT', 'Create/edit project segment'],
  [58, 'UPDATE_FEATURE_DEPENDENCY', 'Update feature dependency'],
  [60, 'PROJECT_USER_ACCESS_READ', 'View only access to Project User Access'],
  [61, 'PROJECT_DEFAULT_STRATEGY_READ', 'View only access to default strategy configuration for project'],
  [62, 'PROJECT_CHANGE_REQUEST_READ', 'View only access to change request configuration for project'],
  [63, 'PROJECT_SETTINGS_READ', 'View only access to project settings'],
  [64, 'PROJECT_USER_ACCESS_WRITE', 'Write access to Project User Access'],
  [65, 'PROJECT_DEFAULT_STRATEGY_WRITE', 'Write access to default strategy configuration for project'],
  [66, 'PROJECT_CHANGE_REQUEST_WRITE', 'Write access to change request configuration for project'],
  [67, 'PROJECT_SETTINGS_WRITE', 'Write access to project settings'],
  [78, 'UPDATE_PROJECT_CONTEXT', 'Create/edit project context'],
  [79, 'UPDATE_PROJECT_RELEASE_TEMPLATE', 'Create/edit project release template'],
];

const environment: [number, PermissionName, string][] = [
  [25, 'CREATE_FEATURE_STRATEGY', 'Create activation strategies'],
  [26, 'UPDATE_FEATURE_STRATEGY', 'Update activation strategies'],
  [27, 'DELETE_FEATURE_STRATEGY', 'Delete activation strategies'],
  [28, 'UPDATE_FEATURE_ENVIRONMENT', 'Enable/disable flags'],
  [35, 'APPROVE_CHANGE_REQUEST', 'Approve/Reject change requests'],
  [36, 'APPLY_CHANGE_REQUEST', 'Apply change requests'],
  [37, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'Update variants'],
  [38, 'SKIP_CHANGE_REQUEST', 'Skip change request process'],
];

const rows = (type: string, list: [number, PermissionName, string][]) =>
  list.map(([id, name, displayName]) => ({ id, name, displayName, type }));

export const permissionRows = [...rows('root', root), ...rows('project', project), ...rows('environment', environment)];

/** Inserted in this order so that their ids are 1 to 6. */
export const roleRows = [
  { name: 'Admin', type: 'root', description: 'Users with the root admin role have superuser access.' },
  { name: 'Editor', type: 'root', description: 'Users with the root editor role have access to most features, but can not manage users and roles in the root context.' },
  { name: 'Viewer', type: 'root', description: 'Users with the root viewer role can only read root resources.' },
  { name: 'Owner', type: 'project', description: 'Users with the project owner role have full control over the project.' },
  { name: 'Member', type: 'project', description: 'Users with the project member role are allowed to view, create, and update feature flags within a project.' },
  { name: 'Reader', type: 'project', description: 'Users with the project reader role can only read project resources.' },
];

export const ROLE = { Admin: 1, Editor: 2, Viewer: 3, Owner: 4, Member: 5, Reader: 6 } as const;

/** The project where a root role's project and environment permissions apply (Editor's flag work), as in Unleash. */
export const ROOT_ROLE_PROJECT = 'default';

const environmentGrants: PermissionName[] = [
  'CREATE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_STRATEGY',
  'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT',
  'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
];
const memberProjectGrants: PermissionName[] = [
  'CREATE_FEATURE',
  'UPDATE_FEATURE',
  'DELETE_FEATURE',
  'UPDATE_FEATURE_VARIANTS',
  'UPDATE_FEATURE_DEPENDENCY',
  'CREATE_PROJECT_API_TOKEN',
  'DELETE_PROJECT_API_TOKEN',
  'READ_PROJECT_API_TOKEN',
];
const ownerProjectGrants: PermissionName[] = [
  ...memberProjectGrants,
  'UPDATE_PROJECT',
  'DELETE_PROJECT',
  'MOVE_FEATURE_TOGGLE',
  'UPDATE_PROJECT_CONTEXT',
  'UPDATE_PROJECT_SEGMENT',
  'UPDATE_PROJECT_RELEASE_TEMPLATE',
];
const editorRootGrants: PermissionName[] = [
  'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON',
  'CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD',
  'CREATE_PROJECT',
  'CREATE_SEGMENT', 'UPDATE_SEGMENT', 'DELETE_SEGMENT',
  'CREATE_STRATEGY', 'UPDATE_STRATEGY', 'DELETE_STRATEGY',
  'CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE', 'DELETE_TAG_TYPE',
  'UPDATE_APPLICATION', 'READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN',
  'RELEASE_PLAN_TEMPLATE_CREATE', 'RELEASE_PLAN_TEMPLATE_UPDATE',
];
const editorProjectGrants: PermissionName[] = [
  'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'UPDATE_PROJECT', 'DELETE_PROJECT', 'MOVE_FEATURE_TOGGLE',
  'UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_DEPENDENCY',
  'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN', 'READ_PROJECT_API_TOKEN',
];

/** The environment permissions the built-in roles hold in one environment (also given to each new environment). */
export const builtInEnvironmentGrants = (environment: string) =>
  [ROLE.Editor, ROLE.Owner, ROLE.Member].flatMap((roleId) => environmentGrants.map((permission) => ({ roleId, permission, environment })));

/** The role → permission rows of the built-in roles; environment permissions for each given environment. */
export function rolePermissionGrants(environments: string[]) {
  const grant = (roleId: number, names: PermissionName[]) => names.map((permission) => ({ roleId, permission, environment: null }));
  return [
    ...grant(ROLE.Admin, ['ADMIN']),
    ...grant(ROLE.Editor, [...editorRootGrants, ...editorProjectGrants]),
    ...grant(ROLE.Owner, ownerProjectGrants),
    ...grant(ROLE.Member, memberProjectGrants),
    ...environments.flatMap(builtInEnvironmentGrants),
  ];
}
