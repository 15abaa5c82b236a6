import { expect } from 'vitest';
import { INSPECTION_STAGE_NAMES } from '../../lambdas/domain/catalogue/inspection-stages.js';
import { isTerminal, type JobRecord } from '../../lambdas/domain/jobs/job.js';
import { type PublicJob, presentJob } from '../../lambdas/domain/jobs/job-view.js';
import type { Services } from '../../lambdas/domain/ports/services.js';
import { type ApiResponse, call } from './http.js';
import { uploadFile } from './uploads.js';

export interface InspectionRequest {
  key: string;
  /** default true; false leaves the walk-around video out */
  video?: boolean;
  photos?: number;
  exclude?: string[];
  scenario?: string;
  query?: string;
  /** varies the bytes, so sandbox models see different inputs */
  seed?: string;
  /** further request headers (Svc-Deadline, …) */
  headers?: Record<string, string>;
}

/** Uploads a walk-around video and photos, then POSTs /v1/inspections with their refs. */
export async function submitInspection(baseUrl: string, request: InspectionRequest): Promise<ApiResponse> {
  const seed = request.seed ?? 'inspection';
  const refs: string[] = [];
  if (request.video ?? true)
    refs.push(
      await uploadFile(baseUrl, request.key, 'video/mp4', Buffer.alloc(4096, `${seed}-video`), 'walkaround.mp4'),
    );
  for (let i = 0; i < (request.photos ?? 2); i++)
    refs.push(
      await uploadFile(baseUrl, request.key, 'image/jpeg', Buffer.alloc(2048, `${seed}-photo-${i}`), `photo-${i}.jpg`),
    );
  return call(baseUrl, 'POST', `/v1/inspections${request.query ?? ''}`, {
    key: request.key,
    json: { input_refs: refs, ...(request.exclude ? { stages: { exclude: request.exclude } } : {}) },
    headers: { ...(request.scenario ? { 'X-Svc-Test-Scenario': request.scenario } : {}), ...request.headers },
  });
}

/**
 * Watches an inspection in process (GET /v1/jobs/{id} is limited to one poll a second) until it
 * settles, checking on every look what a poller must always see: stages complete strictly in
 * pipeline order (a prefix), and the inspection stays processing with no result until the end.
 */
export async function watchInspection(
  services: Services,
  id: string,
  timeoutMs = 60_000,
): Promise<{ record: JobRecord; views: PublicJob[] }> {
  const views: PublicJob[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = (await services.jobs.get(id))!;
    const view = await presentJob(services, record);
    views.push(view);
    const done = view.stages!.map((stage) => stage.completed_at !== null);
    const firstOpen = done.indexOf(false);
    if (firstOpen >= 0)
      expect(
        done.slice(firstOpen).every((d) => !d),
        `stages complete in order: ${JSON.stringify(view.stages!.map((s) => [s.name, s.status]))}`,
      ).toBe(true);
    if (!isTerminal(record.status)) expect(view.result).toBeNull();
    if (isTerminal(record.status)) return { record, views };
    if (Date.now() > deadline)
      throw new Error(
        `inspection ${id} did not settle: ${JSON.stringify(view.stages!.map((s) => [s.name, s.status]))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const STAGE_NAMES = INSPECTION_STAGE_NAMES;
