import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../support/http.js';
import { STAGE_NAMES, submitInspection } from '../../../support/inspections.js';
import { asRole } from '../../../support/management.js';
import { Receiver } from '../../../support/receiver.js';
import { sharedTestService } from '../../../support/service.js';

let receiver: Receiver;
const svc = sharedTestService();
beforeAll(async () => {
  receiver = await new Receiver().start();
  const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
    json: { url: receiver.url, enabled_events: ['job.succeeded', 'job.failed', 'inspection.stage_completed'] },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await receiver.stop();
});

function eventsOf(inspectionId: string) {
  return receiver.events().filter((event) => event.data.job.id === inspectionId);
}

describe('inspection events', () => {
  it('eight inspection.stage_completed in pipeline order, then one job.succeeded; the last shows the settled inspection; stage jobs announce nothing of their own', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'webhook-run' });
    expect(created.status).toBe(202);
    const id = created.body.id;
    const events = await eventually(async () => {
      const seen = eventsOf(id);
      return seen.some((event) => event.type === 'job.succeeded') && seen.length >= 9 ? seen : null;
    }, 60_000);
    const stages = events.filter((event) => event.type === 'inspection.stage_completed');
    expect(stages.map((event) => event.data.stage!.name).sort()).toEqual([...STAGE_NAMES].sort());
    const ordered = [...stages].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(ordered.map((event) => event.data.stage!.stage)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // docs/internals/inspections.md: `processing` for every stage but the last; `result` only once the pipeline settled
    for (const event of ordered.slice(0, 7)) {
      expect(event.data.job).toMatchObject({ id, endpoint: 'inspections', status: 'processing', result: null });
      expect(event.data.job.stages).toHaveLength(8);
    }
    const done = events.filter((event) => event.type === 'job.succeeded');
    expect(done).toHaveLength(1);
    expect(done[0]!.data.job).toMatchObject({ status: 'succeeded', endpoint: 'inspections' });
    const last = ordered[7]!;
    expect(last.data.job).toEqual(done[0]!.data.job);
    expect(last.data.job.result).not.toBeNull();
    expect(last.data.stage).toMatchObject({ stage: 8, name: 'anchor_hotspots', status: 'succeeded' });
    expect(last.id < done[0]!.id).toBe(true);
    const childIds = new Set(stages.map((event) => (event.data.stage as unknown as { job_id: string }).job_id));
    expect(receiver.events().some((event) => childIds.has(event.data.job.id))).toBe(false);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('a failed inspection: stages 1 to 7 announce it processing, the last stage event carries it failed, then one job.failed', async () => {
    const created = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      seed: 'webhook-fail',
      scenario: 'fail_at_detect_damage',
    });
    expect(created.status).toBe(202);
    const id = created.body.id;
    const events = await eventually(async () => {
      const seen = eventsOf(id);
      return seen.some((event) => event.type === 'job.failed') && seen.length >= 9 ? seen : null;
    }, 60_000);
    const ordered = events
      .filter((event) => event.type === 'inspection.stage_completed')
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(ordered.map((event) => event.data.stage!.stage)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const event of ordered.slice(0, 7))
      expect(event.data.job).toMatchObject({ id, status: 'processing', result: null });
    const failed = events.filter((event) => event.type === 'job.failed');
    expect(failed).toHaveLength(1);
    expect(ordered[7]!.data.job).toEqual(failed[0]!.data.job);
    expect(ordered[7]!.data.job).toMatchObject({ status: 'failed', result: null, credits: { charged: 0 } });
    expect(ordered[7]!.data.stage).toMatchObject({ stage: 8, status: 'canceled' });
  });

  it('excluded stages still announce themselves (skipped, canceled): always eight', async () => {
    const created = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      seed: 'webhook-skip',
      exclude: ['render_listing', 'anchor_hotspots'],
    });
    const id = created.body.id;
    const stages = await eventually(async () => {
      const seen = eventsOf(id).filter((event) => event.type === 'inspection.stage_completed');
      return seen.length === 8 ? seen : null;
    }, 60_000);
    const skipped = stages.filter((event) => (event.data.stage as unknown as { skipped: boolean }).skipped);
    expect(skipped.map((event) => event.data.stage!.name).sort()).toEqual(['anchor_hotspots', 'render_listing']);
  });
});
