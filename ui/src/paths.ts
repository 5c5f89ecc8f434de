/** The address of a flag's page. */
export const flagPath = (project: string, name: string) => `/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;
/** The address of a project's page; `tab` opens one of its tabs (`members`, `change-requests`, `settings`). */
export const projectPath = (project: string, tab?: string) => `/projects/${encodeURIComponent(project)}${tab ? `?tab=${tab}` : ''}`;
