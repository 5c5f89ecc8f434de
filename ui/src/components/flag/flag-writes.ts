// Where a project requires change requests in an environment, the service refuses direct flag changes there
// (409) to whoever may not skip them: the UI proposes the same change into the user's draft change request instead.
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { holdsIn } from '../../lib/permissions.js';
import { useSession } from '../../session';

type ProposedChange = Omit<components['schemas']['ChangeRequestChangeInput'], 'feature'>;

/** Per environment of the project: whether flag changes there go through change requests. */
export const useChangeRequestConfig = (project: string) =>
  useQuery({
    queryKey: ['change-request-config', project],
    queryFn: () => ok(api.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId: project } } })),
  });

/** Makes one change of a flag in an environment: directly, or proposed as `change`. */
export type FlagWrite = (direct: () => Promise<unknown>, change: ProposedChange) => Promise<unknown>;

/**
 * How the user changes the flag in one environment: `write(direct, change)` calls the direct operation, or, while
 * `proposing`, adds `change` (the same change as a change request's action and payload) to their draft.
 */
export function useFlagWrite(project: string, feature: string, environment: string): { proposing: boolean; write: FlagWrite } {
  const session = useSession();
  const config = useChangeRequestConfig(project);
  const required = config.data?.some((e) => e.environment === environment && e.changeRequestEnabled) ?? false;
  const proposing = required && !holdsIn(session.caller, 'SKIP_CHANGE_REQUEST', { project, environment });
  async function write(direct: () => Promise<unknown>, change: ProposedChange): Promise<unknown> {
    if (!proposing) return direct();
    const draft = await ok(
      api.POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
        params: { path: { projectId: project, environment } },
        body: { feature, ...change },
      }),
    );
    notifications.show({ color: 'blue', message: `Proposed in your draft change request #${draft.id} for ${environment}: submit it from the Change requests page.` });
    return draft;
  }
  return { proposing, write };
}
