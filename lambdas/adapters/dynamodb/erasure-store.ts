import { type JobRecord, TERMINAL_STATUSES } from '../../domain/jobs/job.js';
import { timeOrderedFloor } from '../../domain/kernel/ids.js';
import type { ErasureStore, MarkedJob } from '../../domain/ports/erasure.js';
import type { EventRecord, WebhookEvent } from '../../domain/webhooks/records.js';
import { documentSdk, dynamodbSdk, dynamodbUtil } from '../aws-sdk.js';
import { EVENT_BODY_ATTRIBUTE, packedEvent } from './event-body.js';
import { eventsOfJobsIn } from './event-index.js';
import { JOB_SOURCES, jobsOfEntries, queryJobSource } from './job-index.js';
import { keys } from './keys.js';
import { deleteStageItems, withStageItems } from './stage-items.js';
import { stripKeys, type Table } from './table.js';

const { GetCommand, PutCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException } = dynamodbSdk;

/** Redaction's and retention's reads and writes in the one table. */
export class DynamoErasureStore implements ErasureStore {
  constructor(private readonly table: Table) {}

  /** One conditional update: the job must have settled and not be redacted yet; a refusal brings the item back to tell which. */
  async markRedacted(jobId: string, set: Partial<JobRecord> & { redacted_at: number }): Promise<MarkedJob | null> {
    const fields = Object.entries(set);
    const settled = [...TERMINAL_STATUSES];
    try {
      const out = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(jobId),
          ConditionExpression: `#status IN (${settled.map((_, i) => `:s${i}`).join(', ')}) AND attribute_not_exists(#redacted)`,
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#status': 'status',
            '#redacted': 'redacted_at',
            ...Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field])),
          },
          ExpressionAttributeValues: {
            ...Object.fromEntries(settled.map((status, i) => [`:s${i}`, status])),
            ...Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const job = stripKeys<JobRecord>(out.Attributes!);
      // the redacted inspection holds every stage (results gone): its stage items go with the results
      await deleteStageItems(this.table, job);
      return { job, marked: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // the item of a failed condition comes back unmarshalled by neither client
      const job = error.Item ? stripKeys<JobRecord>(dynamodbUtil.unmarshall(error.Item)) : null;
      if (!job || job.redacted_at === undefined) return null;
      // a redaction that stopped before its stage items were deleted is finished here
      await deleteStageItems(this.table, job);
      return { job, marked: false };
    }
  }

  /**
   * The mode's jobs, read forward from the cursor by their time-ordered id: the lean index's (their
   * jobs read by key) and, for jobs written before it, `gsi1`'s, merged (job-index.ts).
   */
  async listJobs(
    orgId: string,
    livemode: boolean,
    range: { afterId: string | null; beforeId: string; limit: number },
  ): Promise<JobRecord[]> {
    const perSource = await Promise.all(
      JOB_SOURCES.map(async (source) => {
        const { entries } = await queryJobSource(this.table, source, {
          KeyConditionExpression: '#p = :p AND #s BETWEEN :from AND :before',
          ExpressionAttributeNames: { '#p': source.pkName, '#s': source.skName },
          ExpressionAttributeValues: {
            ':p': keys.jobsOfOrgAndMode(orgId, livemode),
            ':from': range.afterId ?? 'job_',
            ':before': range.beforeId,
          },
          ScanIndexForward: true,
          // BETWEEN includes the cursor's own job: one more, left out below
          Limit: range.limit + 1,
        });
        return jobsOfEntries(this.table, entries, source.lean);
      }),
    );
    const jobs = perSource
      .flat()
      .filter((job) => job.id !== range.afterId && job.id < range.beforeId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, range.limit);
    return Promise.all(jobs.map((job) => withStageItems(this.table, job)));
  }

  async retentionCursor(orgId: string, livemode: boolean): Promise<string | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.retentionCursor(orgId, livemode), ConsistentRead: true }),
    );
    return (out.Item?.through as string | undefined) ?? null;
  }

  async saveRetentionCursor(orgId: string, livemode: boolean, jobId: string): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.retentionCursor(orgId, livemode), through: jobId },
      }),
    );
  }

  /** The organisation's events over the window (time-ordered ids), those of the jobs given. */
  eventsOfJobs(
    orgId: string,
    jobIds: ReadonlySet<string>,
    window: { fromMs: number; toMs: number },
  ): Promise<EventRecord[]> {
    return eventsOfJobsIn(this.table, orgId, jobIds, {
      from: timeOrderedFloor('evt', window.fromMs),
      to: timeOrderedFloor('evt', window.toMs),
    });
  }

  async replaceEvent(event: WebhookEvent): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.event(event.id),
          ConditionExpression: 'attribute_exists(pk)',
          // an event stored whole before compression is stored compressed from its redaction on
          UpdateExpression: 'SET #body = :body REMOVE #event',
          ExpressionAttributeNames: { '#body': EVENT_BODY_ATTRIBUTE, '#event': 'event' },
          ExpressionAttributeValues: { ':body': packedEvent(event)[EVENT_BODY_ATTRIBUTE] },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
