import { marshall } from '@aws-sdk/util-dynamodb';
import { jobItem } from '../../../lambdas/adapters/dynamodb/job-store.js';
import { keys } from '../../../lambdas/adapters/dynamodb/keys.js';
import { TABLE_DEFINITION } from '../../../lambdas/adapters/dynamodb/table-definition.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import type { StreamPipe, StreamRecord, StreamShard } from '../../../local/stream-pipe.js';

/** GetRecords returns at most 1000 records a call. */
const RECORDS_PER_READ = 1000;

/**
 * The table's stream, as DynamoDB Streams would carry the in-memory tables' writes: each write of
 * a job row becomes an `INSERT`, `MODIFY` or `REMOVE` record with the item's new image in the
 * adapter's shape (`jobItem`: its keys and work lane included), in write order. Readers (the job
 * stream's Pipes, local/job-stream.ts) get the records after the write, off the writer's call, as
 * a Pipe reads them after the transaction has committed.
 */
export class InMemoryTableStream {
  readonly shard: StreamShard = {
    streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/in-memory/stream/2026-01-01T00:00:00.000',
    shardId: 'shardId-00000000000000000001-in-memory',
  };
  private readonly readers: StreamPipe[] = [];
  private readonly pending: StreamRecord[] = [];
  private sequence = 0;
  private reading: Promise<void> | null = null;

  /** Adds a reader of every record written from now on (a Pipe starting at LATEST). */
  read(reader: StreamPipe): void {
    this.readers.push(reader);
  }

  /** Settles once every record written so far has been read (and its Pipes are done with it). */
  async idle(): Promise<void> {
    while (this.reading) await this.reading;
  }

  jobWritten(eventName: 'INSERT' | 'MODIFY', job: JobRecord): void {
    this.emit(eventName, keys.job(job.id), marshall(jobItem(job), { removeUndefinedValues: true }));
  }

  jobRemoved(id: string): void {
    this.emit('REMOVE', keys.job(id), undefined);
  }

  private emit(eventName: string, key: { pk: string; sk: string }, newImage: Record<string, unknown> | undefined) {
    this.sequence += 1;
    this.pending.push({
      eventID: String(this.sequence),
      eventName,
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: this.shard.streamArn,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: marshall(key),
        ...(newImage ? { NewImage: newImage } : {}),
        SequenceNumber: String(this.sequence).padStart(21, '0'),
        StreamViewType: TABLE_DEFINITION.streamViewType,
      },
    });
    this.reading ??= this.readAll();
  }

  /** Hands the records to every reader, a read's worth at a time, each read once every reader is done with the last. */
  private async readAll(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const records = this.pending.splice(0, RECORDS_PER_READ);
      await Promise.all(this.readers.map((reader) => reader(records, this.shard)));
    }
    this.reading = null;
  }
}

/** The jobs' rows: every write of one is a record of the table's stream, whichever store or transaction made it. */
export class StreamedJobRows extends Map<string, JobRecord> {
  constructor(private readonly stream: InMemoryTableStream) {
    super();
  }

  override set(id: string, job: JobRecord): this {
    const eventName = this.has(id) ? 'MODIFY' : 'INSERT';
    super.set(id, job);
    this.stream.jobWritten(eventName, job);
    return this;
  }

  override delete(id: string): boolean {
    const deleted = super.delete(id);
    if (deleted) this.stream.jobRemoved(id);
    return deleted;
  }
}
