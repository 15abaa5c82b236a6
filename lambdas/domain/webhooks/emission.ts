import type { JobRecord, StageRecord } from '../jobs/job.js';
import { type PublicJob, presentJob } from '../jobs/job-view.js';
import { epochSeconds } from '../kernel/clock.js';
import { timeOrderedId } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import type { BatchEventData, EventRecord, WebhookEventType } from './records.js';

/** How long an event may wait for its dispatch message before the sweeper sends it again. */
export const DISPATCH_GRACE_SECONDS = 60;

export type EventOp = Extract<WriteOp, { kind: 'createEvent' }>;

interface EventSubject {
  orgId: string;
  /** the job or batch the event is about */
  subjectId: string;
  livemode: boolean;
}

/**
 * The outbox write of one event, due for dispatch within the grace. `order` places events written
 * together: ids are time-ordered, so the later one is made `order` ms on.
 */
function eventOp(
  services: Services,
  type: WebhookEventType,
  subject: EventSubject,
  data: EventRecord['event']['data'],
  order = 0,
): EventOp {
  const created = epochSeconds(services.clock);
  const record: EventRecord = {
    event: {
      id: timeOrderedId('evt', services.clock.nowMs() + order),
      object: 'event',
      type,
      api_version: services.config.apiVersion,
      created,
      data,
    },
    org_id: subject.orgId,
    job_id: subject.subjectId,
    livemode: subject.livemode,
    dispatched: false,
  };
  return { kind: 'createEvent', record, dispatchDueAt: created + DISPATCH_GRACE_SECONDS };
}

function subjectOf(job: JobRecord): EventSubject {
  return { orgId: job.org_id, subjectId: job.id, livemode: job.livemode };
}

/** `batch.completed`, written in the transaction that completes the batch. */
export function batchEventOp(
  services: Services,
  orgId: string,
  batchId: string,
  livemode: boolean,
  data: BatchEventData,
): EventOp {
  return eventOp(services, 'batch.completed', { orgId, subjectId: batchId, livemode }, data);
}

/**
 * The outbox write of a settled job's event, committed in the settlement transaction itself: a
 * job cannot settle without its event existing, nor the event exist for a settlement that did
 * not commit. A stage of an inspection (a child job) announces nothing of its own. An inspection's
 * last stage is announced here, before the inspection's own event (see `isLastStage`).
 */
export async function settledJobEventOps(services: Services, settled: JobRecord): Promise<EventOp[]> {
  if (settled.parent_job_id) return [];
  const type =
    settled.status === 'succeeded'
      ? 'job.succeeded'
      : settled.status === 'failed' || settled.status === 'expired'
        ? 'job.failed'
        : null;
  if (!type) return [];
  const presented = await presentJob(services, settled);
  const last = settled.stages?.at(-1);
  const lastStage = last?.recorded ? await stageCompletedEventOps(services, settled, last, presented) : [];
  return [...lastStage, eventOp(services, type, subjectOf(settled), { job: presented, stage: null }, lastStage.length)];
}

/**
 * The `data.job` of `inspection.stage_completed` is `processing` for every stage but the
 * last: the last stage is announced by the settlement of the inspection, with the settled job.
 */
export function isLastStage(inspection: JobRecord, stage: StageRecord): boolean {
  return stage.stage === inspection.stages?.length;
}

/** `inspection.stage_completed`: the inspection as it is now, and the stage that settled. */
export async function stageCompletedEventOps(
  services: Services,
  inspection: JobRecord,
  stage: StageRecord,
  presented?: PublicJob,
): Promise<EventOp[]> {
  const job = presented ?? (await presentJob(services, inspection));
  const publicStage = job.stages?.find((candidate) => candidate.stage === stage.stage) ?? null;
  return [eventOp(services, 'inspection.stage_completed', subjectOf(inspection), { job, stage: publicStage })];
}

/**
 * Commits `ops` with the events that announce them (the outbox) and returns the events that still
 * need their dispatch message. An organisation not known to have webhook endpoints gets its events
 * written already dispatched, on a condition its transaction checks: that its endpoints are counted
 * and number none. Should it have some after all, the commit is made again with events to dispatch,
 * and that is remembered for a while. So an event nobody listens to costs no message, no dispatch
 * and no second write, and an endpoint created a moment before the commit still gets the event.
 */
export async function commitAnnounced(
  services: Services,
  ops: readonly WriteOp[],
  eventOps: readonly EventOp[],
): Promise<readonly EventOp[]> {
  const orgId = eventOps[0]?.record.org_id;
  if (orgId !== undefined && !services.listenerHints.mayHaveListeners(orgId, services.clock.nowMs())) {
    try {
      await services.uow.commit([...ops, ...eventOps.map(heardByNobody), { kind: 'expectNoWebhookEndpoints', orgId }]);
      return [];
    } catch (error) {
      if (!(error instanceof TransactionRefused && error.refusedOps.includes('expectNoWebhookEndpoints'))) throw error;
      services.listenerHints.sawListeners(orgId, services.clock.nowMs());
    }
  }
  await services.uow.commit([...ops, ...eventOps]);
  return eventOps;
}

function heardByNobody(op: EventOp): EventOp {
  return { ...op, record: { ...op.record, dispatched: true }, dispatchDueAt: null };
}

/** After the commit: hand the events to the delivery queue; a lost send is re-sent by the sweeper. */
export async function enqueueEvents(services: Services, eventOps: readonly EventOp[]): Promise<void> {
  await Promise.all(
    eventOps.map(({ record }) =>
      services.webhookQueue.send({ event_id: record.event.id }).catch((error: unknown) =>
        services.log.warn('event enqueue failed; the sweeper will send it', {
          event_id: record.event.id,
          error: String(error),
        }),
      ),
    ),
  );
}
