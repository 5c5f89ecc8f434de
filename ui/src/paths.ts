/** The address of a flag's page. */
export const flagPath = (project: string, name: string) => `/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;
