import type { EndpointSlug } from '../catalogue/catalogue.js';

export const JOB_STATUSES = ['queued', 'processing', 'succeeded', 'failed', 'expired', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'expired', 'canceled']);

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export interface JobError {
  type: 'processing_error' | 'invalid_request' | 'internal';
  code: string;
  message: string;
}

/** An input asset as stored with the job: where the bytes are and what they are. */
export interface InputAsset {
  index: number;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  object_key: string;
}

/** A file a job produced, kept in the object store and signed on every read. */
export interface ProducedFile {
  object_key: string;
  content_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
}

/** Where a job's produced file `fileKey` lives in the bucket; the inference plane writes there too. */
export function outputObjectKey(job: Pick<JobRecord, 'org_id' | 'id'>, fileKey: string): string {
  return `outputs/${job.org_id}/${job.id}/${fileKey}`;
}

export interface JobRecord {
  id: string;
  org_id: string;
  api_key_id: string;
  livemode: boolean;
  endpoint: EndpointSlug;
  status: JobStatus;
  created: number;
  started_at: number | null;
  completed_at: number | null;
  model_version: string | null;
  credits: { reserved: number; charged: number | null };
  /** stored form: produced files appear as `{ file_key }` and are signed by the presenter */
  result: Record<string, unknown> | null;
  error: JobError | null;
  test_scenario: string | null;
  params: Record<string, unknown>;
  inputs: InputAsset[];
  files: Record<string, ProducedFile>;
  billable_units: number | null;
  /** epoch second after which a still-queued job expires */
  queue_deadline: number;
  /** epoch second after which the sweeper re-sends a still-queued job to the work queue */
  redrive_at: number;
  /** seconds the fixture backend holds the job before dispatch and while processing (`slow`) */
  simulated_delay_seconds: number;
}
