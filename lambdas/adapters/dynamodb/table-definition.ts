/** Key schema of the one table; the CDK stack and the local runtime both build from it. */
export const TABLE_DEFINITION = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    // the sweepers only need ids (they read what is due afterwards), and everything active is
    // rewritten often: keys alone keep each of those writes to one index unit
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
    // an organisation's events, newest first: an event carries the whole job, and on an index that
    // projected it all it was written twice at full size. This one holds what the lists filter on
    // (one write unit an event, none when it is marked dispatched or redacted); a page's events are
    // then read by key. Events written before it are still on gsi2 (docs/internals/cost.md)
    {
      name: 'gsi4',
      partitionKey: 'gsi4pk',
      sortKey: 'gsi4sk',
      projection: 'INCLUDE',
      nonKeyAttributes: ['type', 'job_id', 'created'],
    },
    // a mode's jobs, newest first: keys and what the job lists filter on (job-index.ts). On gsi1,
    // which projected it all, every write of a job (an inspection's at each stage) was written
    // again whole; a page's jobs are now read by key. Jobs written before it are still on gsi1
    {
      name: 'gsi5',
      partitionKey: 'gsi5pk',
      sortKey: 'gsi5sk',
      projection: 'INCLUDE',
      nonKeyAttributes: ['status', 'endpoint', 'batch_id', 'parent_job_id'],
    },
  ],
  /** attribute holding an epoch second after which an item may be deleted (never relied on for correctness) */
  ttlAttribute: 'ttl',
  /** a job item's work lane: the table stream's Pipes route new jobs on it (lib/job-stream.ts) */
  jobLaneAttribute: 'work_lane',
  /** what the table's stream carries: new jobs reach their work queues through it (lib/job-stream.ts) */
  streamViewType: 'NEW_IMAGE',
} as const;
