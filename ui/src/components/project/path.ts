/** The address of a project's page; `tab` opens one of its tabs (`members`, `change-requests`, `settings`). */
export const projectPath = (project: string, tab?: string) => `/projects/${encodeURIComponent(project)}${tab ? `?tab=${tab}` : ''}`;
