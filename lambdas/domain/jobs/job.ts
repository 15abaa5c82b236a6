import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { InspectionStageName } from '../catalogue/stage-names.js';
import type { JobErrorCode } from './job-errors.js';

export const JOB_STATUSES = ['queued', 'processing', 'succeeded', 'failed', 'expired', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['succeeded', 'failed', 'expired', 'canceled']);

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

export interface JobError {
  type: 'processing_error' | 'invalid_request' | 'internal';
  code: JobErrorCode;
  message: string;
}

/** An input asset as stored with the job: where the bytes are and what they are. */
export interface InputAsset {
  index: number;
  filename: string | null;
  content_type: string;
  size_bytes: number;
  /** hex SHA-256 of the bytes; null for an upload until the worker has read it (`withInputHashes`) */
  sha256: string | null;
  object_key: string;
  /**
   * Seconds the clip runs, read from its header at admission (per-second endpoints only,
   * `media-duration.ts`); null when its container says nothing this reads
   */
  duration_seconds?: number | null;
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
  return `${outputFolder(job.org_id)}${job.id}/${fileKey}`;
}

/** The folder of an organisation's produced files, one sub-folder per job. */
export function outputFolder(orgId: string): string {
  return `outputs/${orgId}/`;
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
  /** seconds the test-mode backend holds the job before dispatch and while processing (`slow`) */
  simulated_delay_seconds: number;
  /** `Svc-Deadline`: seconds after `created` by which the job must settle, or it expires (docs/internals/deadlines.md); absent without one */
  deadline_seconds?: number;
  /** the epoch millisecond the job expires at if still unsettled: `deadline_seconds` after the instant it was created (its id's), so a 1 s deadline is a whole second */
  deadline_at_ms?: number;
  /** inspection stages run as child jobs: the inspection's id (absent on every other job) */
  parent_job_id?: string;
  /** child jobs: the stage they run for their parent */
  stage_name?: InspectionStageName;
  /** child jobs: the orchestrator's task token, sent back when the child settles; replaced when a resumed pipeline re-attaches */
  task_token?: string | null;
  /** the request that admitted the job: its transitions' log lines carry it */
  request_id?: string;
  /** inspection jobs only: the eight stages, in pipeline order */
  stages?: StageRecord[];
  /** inspection jobs: how many stages have a child job (or were recorded without one); guards start_stage against doubles */
  stages_started?: number;
  /** inspection jobs: how many stages are recorded; each record is conditioned on it, so a stage is recorded (and announced) once */
  stages_recorded?: number;
  /** inspection jobs: which execution of the pipeline drives it (0 first; a resumed run after a lost execution adds 1) */
  execution_attempt?: number;
  /** when the job's result and files were deleted for good (docs/internals/data-retention.md); absent until then */
  redacted_at?: number;
  /** the batch whose line the job runs (docs/internals/batches.md); absent on every other job */
  batch_id?: string;
}

/** One stage of an inspection as stored on the inspection job; presented as a JobStage (docs/internals/inspections.md). */
export interface StageRecord {
  stage: number;
  name: InspectionStageName;
  endpoint: EndpointSlug;
  status: JobStatus;
  started_at: number | null;
  completed_at: number | null;
  job_id: string | null;
  error: JobError | null;
  /** stored form: produced files are `{ file_key: "<stage name>.<key>" }`, found in the inspection's `files` */
  result: Record<string, unknown> | null;
  skipped: boolean;
  /** true once the record step wrote the stage's final state (and its event) */
  recorded: boolean;
}
