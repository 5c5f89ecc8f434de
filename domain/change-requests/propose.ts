// A change request the service opens itself, straight into review: a release plan's milestone that is due in an
// environment requiring change requests is proposed, and others approve and apply it as any request.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import type { components } from '../../generated/api.js';
import type { RecordEvent } from '../events/event-log.js';
import { eventOf, summary } from './apply.js';

interface Proposal {
  project: string;
  environment: string;
  /** Who the request is by: they cannot approve it. */
  authorId: number;
  title: string;
  feature: string;
  action: components['schemas']['ChangeRequestAction'];
  payload: Record<string, unknown>;
}

/** Opens the request in review with its one change, recording what a user's proposal and sending to review record. */
export async function proposeForReview(tx: Db, record: RecordEvent, proposal: Proposal): Promise<number> {
  const [settings] = await tx
    .select({ requiredApprovals: t.changeRequestSettings.requiredApprovals })
    .from(t.changeRequestSettings)
    .where(and(eq(t.changeRequestSettings.project, proposal.project), eq(t.changeRequestSettings.environment, proposal.environment)));
  const [request] = await tx
    .insert(t.changeRequests)
    .values({
      project: proposal.project,
      environment: proposal.environment,
      state: 'In review',
      title: proposal.title,
      minApprovals: settings?.requiredApprovals ?? 1,
      createdByUserId: proposal.authorId,
    })
    .returning();
  await record({ type: 'change-request-created', ...eventOf(request!), data: summary(request!) });
  const [added] = await tx
    .insert(t.changeRequestChanges)
    .values({ changeRequestId: request!.id, feature: proposal.feature, action: proposal.action, payload: proposal.payload, createdByUserId: proposal.authorId })
    .returning();
  await record({ type: 'change-added', ...eventOf(request!), featureName: proposal.feature, data: { changeRequestId: request!.id, id: added!.id, action: proposal.action, payload: proposal.payload } });
  await record({ type: 'change-request-sent-to-review', ...eventOf(request!), data: summary(request!) });
  return request!.id;
}
