import type { Clock } from './clock.js';
import type { AccountStore, InferencePlane, JobStore, ObjectStore, UnitOfWork, UploadStore, WorkQueue } from './ports.js';

export interface ServiceConfig {
  /** base of `doc_url` in error envelopes */
  docsUrl: string;
  /** contract version stamped on webhook events */
  apiVersion: string;
  /** how long `wait=true` holds the connection */
  waitCeilingMs: number;
  /** lifetime of signed result-file URLs */
  signedUrlTtlSeconds: number;
  /** a queued job is re-sent to the work queue after this long (covers a lost enqueue) */
  redriveAfterSeconds: number;
  /** `slow` scenario: seconds queued before dispatch, then seconds processing */
  slowScenarioSeconds: number;
  /** overrides every endpoint's queue timeout (local runtime and tests) */
  queueTimeoutOverrideSeconds: number | null;
  maxFileBytes: number;
  maxUploadBytes: number;
  /** lifetime of a presigned upload URL */
  uploadUrlTtlSeconds: number;
  /** an upload reference not used by a job within this long can no longer be used */
  uploadRefTtlSeconds: number;
  /** AWS keeps `wait` under API Gateway's limit; the local server may say otherwise */
  runtime: 'aws' | 'local';
}

export const DEFAULT_CONFIG: ServiceConfig = {
  docsUrl: 'https://docs.automotive-inference.example/docs',
  apiVersion: '2026-08-01',
  waitCeilingMs: 28_000,
  signedUrlTtlSeconds: 3600,
  redriveAfterSeconds: 60,
  slowScenarioSeconds: 3,
  queueTimeoutOverrideSeconds: null,
  maxFileBytes: 10 * 1024 * 1024,
  maxUploadBytes: 500 * 1024 * 1024,
  uploadUrlTtlSeconds: 3600,
  uploadRefTtlSeconds: 24 * 3600,
  runtime: 'aws',
};

export interface Log {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

/** Everything domain code needs, injected by a composition root. */
export interface Services {
  config: ServiceConfig;
  clock: Clock;
  jobs: JobStore;
  uploads: UploadStore;
  accounts: AccountStore;
  uow: UnitOfWork;
  workQueue: WorkQueue;
  objects: ObjectStore;
  inferencePlane: InferencePlane;
  log: Log;
}
