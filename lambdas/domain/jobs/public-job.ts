import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { InspectionStageName } from '../catalogue/stage-names.js';
import type { JobError, JobRecord, JobStatus } from './job.js';

/** One entry of an inspection's `stages` (docs/internals/inspections.md). */
export interface PublicStage {
  stage: number;
  endpoint: EndpointSlug;
  name: InspectionStageName;
  model: string;
  status: JobStatus;
  started_at: number | null;
  completed_at: number | null;
  job_id: string | null;
  error: JobError | null;
  result?: Record<string, unknown>;
  skipped: boolean;
}

/** The public Job resource, exactly the documented fields: the record less what is ours alone. */
export type PublicJob = Pick<
  JobRecord,
  | 'id'
  | 'endpoint'
  | 'status'
  | 'livemode'
  | 'created'
  | 'started_at'
  | 'completed_at'
  | 'model_version'
  | 'credits'
  | 'result'
  | 'error'
> & {
  object: 'job';
  /** inspection jobs only */
  stages?: PublicStage[];
  test_scenario?: string;
};
