import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../../lambdas/domain/kernel/ids.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { ledgerSum } from '../../support/ledger.js';
import { sharedTestService, startTestService } from '../../support/service.js';

const svc = sharedTestService();

const plate = (key: string, query = '', headers: Record<string, string> = {}) =>
  call(svc.baseUrl, 'POST', `/v1/plate.read${query}`, { key, form: formWith('image', [imageFile()]), headers });

describe('job lifecycle', () => {
  it('answers 202 with a queued job that then moves through processing to succeeded with a result', async () => {
    const created = await plate(svc.org.testKey);
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      object: 'job',
      endpoint: 'plate.read',
      status: 'queued',
      livemode: false,
      started_at: null,
      completed_at: null,
      model_version: null,
      result: null,
      error: null,
      credits: { reserved: 2, charged: null },
    });
    expect(created.body.id).toMatch(/^job_[1-9A-HJ-NP-Za-km-z]{8,32}$/);
    expect(created.body).not.toHaveProperty('stages');
    expect(created.body).not.toHaveProperty('test_scenario');

    const settled = await eventually(async () => {
      const r = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.testKey });
      return r.body.status === 'succeeded' ? r : null;
    });
    expect(settled.status).toBe(200);
    expect(settled.body.started_at).toBeGreaterThanOrEqual(settled.body.created);
    expect(settled.body.completed_at).toBeGreaterThanOrEqual(settled.body.started_at);
    expect(settled.body.model_version).toMatch(/^plate-reader-v6@\d{4}-\d{2}-\d{2}-fixture$/);
    expect(settled.body.credits).toEqual({ reserved: 2, charged: 2 });
    expect(settled.body.result).not.toBeNull();
    expect(settled.body.error).toBeNull();
  });

  it('wait=true on a fast endpoint answers 200 with the settled job', async () => {
    const response = await call(svc.baseUrl, 'POST', '/v1/tire.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('tire')]),
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('succeeded');
    expect(response.body.result).not.toBeNull();
  });

  it('wait=true answers 202 with the still-running job when the ceiling passes', async () => {
    const quick = await startTestService({ config: { waitCeilingMs: 300, slowScenarioSeconds: 2 } });
    try {
      const response = await call(quick.baseUrl, 'POST', '/v1/tire.read?wait=true', {
        key: quick.org.testKey,
        form: formWith('image', [imageFile('tire')]),
        headers: { 'X-Svc-Test-Scenario': 'slow' },
      });
      expect(response.status).toBe(202);
      expect(['queued', 'processing']).toContain(response.body.status);
      const settled = await eventually(async () => {
        const r = await call(quick.baseUrl, 'GET', `/v1/jobs/${response.body.id}`, { key: quick.org.testKey });
        return r.body.status === 'succeeded' ? r : null;
      });
      expect(settled.body.credits.charged).toBe(3);
    } finally {
      await quick.stop();
    }
  });

  it('wait=true on a slow-scenario job still answers 200 once it settles within the ceiling', async () => {
    const response = await plate(svc.org.testKey, '?wait=true', { 'X-Svc-Test-Scenario': 'slow' });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('succeeded');
    expect(response.body.test_scenario).toBe('slow');
  });

  it('lists the key’s jobs newest first, scoped to its mode, with pagination and filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await plate(svc.org.testKey)).body.id);
    const live = await plate(svc.org.liveKey);
    const page = await call(svc.baseUrl, 'GET', '/v1/jobs?limit=2', { key: svc.org.testKey });
    expect(page.status).toBe(200);
    expect(page.body.object).toBe('list');
    expect(page.body.has_more).toBe(true);
    expect(page.body.data.map((j: { id: string }) => j.id)).toEqual([ids[2], ids[1]]);
    const next = await call(svc.baseUrl, 'GET', `/v1/jobs?limit=1&starting_after=${ids[1]}`, { key: svc.org.testKey });
    expect(next.body.data[0].id).toBe(ids[0]);
    const all = await call(svc.baseUrl, 'GET', '/v1/jobs?limit=100', { key: svc.org.testKey });
    expect(all.body.data.every((j: { livemode: boolean }) => j.livemode === false)).toBe(true);
    expect(all.body.data.map((j: { id: string }) => j.id)).not.toContain(live.body.id);
    const liveList = await call(svc.baseUrl, 'GET', '/v1/jobs', { key: svc.org.liveKey });
    expect(liveList.body.data.map((j: { id: string }) => j.id)).toContain(live.body.id);
    const filtered = await call(svc.baseUrl, 'GET', '/v1/jobs?endpoint=tire.read', { key: svc.org.testKey });
    expect(filtered.body.data.every((j: { endpoint: string }) => j.endpoint === 'tire.read')).toBe(true);
    const other = await call(svc.baseUrl, 'GET', '/v1/jobs', { key: svc.otherOrg.testKey });
    expect(other.body.data.map((j: { id: string }) => j.id)).not.toContain(ids[0]);
  });

  it('lists jobs written on the old whole-job index beside new ones, newest first, paged and filtered', async () => {
    const doc = DynamoDBDocumentClient.from(svc.services.clients.dynamodb);
    const TableName = svc.services.infrastructure.tableName;
    const { id } = (await plate(svc.org.testKey)).body;
    await eventually(
      async () =>
        (await call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key: svc.org.testKey })).body.status === 'succeeded',
    );
    // a batch id of this test's own, so the list holds only the two jobs below
    const batch = timeOrderedId('bat', svc.clock.nowMs());
    await doc.send(
      new UpdateCommand({
        TableName,
        Key: { pk: `JOB#${id}`, sk: '#' },
        UpdateExpression: 'SET batch_id = :batch',
        ExpressionAttributeValues: { ':batch': batch },
      }),
    );
    const stored = (await doc.send(new GetCommand({ TableName, Key: { pk: `JOB#${id}`, sk: '#' } }))).Item!;
    // a new job is on the lean index only
    expect(stored).toMatchObject({ gsi5pk: `ORGJOBS#${svc.org.organization.id}#test`, gsi5sk: id });
    expect(stored.gsi1pk).toBeUndefined();
    // the same job as the layout before the lean index stored it: whole, on gsi1, created a second before it
    const oldId = timeOrderedId('job', (stored.created as number) * 1000 - 1000);
    const { gsi5pk, gsi5sk: _sk, ...rest } = stored;
    await doc.send(
      new PutCommand({ TableName, Item: { ...rest, pk: `JOB#${oldId}`, id: oldId, gsi1pk: gsi5pk, gsi1sk: oldId } }),
    );
    const list = (query: string) =>
      call(svc.baseUrl, 'GET', `/v1/jobs?batch=${batch}${query}`, { key: svc.org.testKey });
    const first = await list('&limit=1');
    expect(first.body).toMatchObject({ has_more: true, data: [{ id, status: 'succeeded' }] });
    const second = await list(`&limit=1&starting_after=${id}`);
    expect(second.body).toMatchObject({ has_more: false, data: [{ id: oldId, status: 'succeeded' }] });
    expect((await list('&status=failed')).body.data).toEqual([]);
  });

  it('rejects bad list parameters with the envelope', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs?limit=0', { key: svc.org.testKey }),
      400,
      'invalid_request',
      'parameter_invalid',
      'limit',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs?limit=101', { key: svc.org.testKey }),
      400,
      'invalid_request',
      'parameter_invalid',
      'limit',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs?status=done', { key: svc.org.testKey }),
      400,
      'invalid_request',
      'parameter_invalid',
      'status',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs?colour=red', { key: svc.org.testKey }),
      400,
      'invalid_request',
      'parameter_unknown',
      'colour',
    );
  });

  it("another organisation's job is 403, a job of the other mode is 404, for reading and for cancelling", async () => {
    const created = await plate(svc.org.testKey);
    expectEnvelope(
      await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.otherOrg.testKey }),
      403,
      'permission',
      'scope_not_granted',
      null,
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: svc.otherOrg.testKey }),
      403,
      'permission',
      'scope_not_granted',
      null,
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: svc.org.liveKey }),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.liveKey }),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs/job_doesNotExist1', { key: svc.org.testKey }),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs/not-a-job-id', { key: svc.org.testKey }),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
  });
});

describe('cancel and expiry', () => {
  const paused = sharedTestService({ workerPaused: true });

  it('cancels a queued job, releases its whole reservation, and is idempotent', async () => {
    const before = await paused.services.accounts.getBalance(paused.org.organization.id, false);
    const created = await call(paused.baseUrl, 'POST', '/v1/damage.detect', {
      key: paused.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before - 5);
    const canceled = await call(paused.baseUrl, 'POST', `/v1/jobs/${created.body.id}/cancel`, {
      key: paused.org.testKey,
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      credits: { reserved: 5, charged: 0 },
      result: null,
      error: null,
    });
    expect(canceled.body.completed_at).not.toBeNull();
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before);
    const again = await call(paused.baseUrl, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: paused.org.testKey });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('canceled');
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before);
    expect(await ledgerSum(paused.services, paused.org.organization.id, false)).toBe(before);
  });

  it('refuses to cancel a job that is no longer queued', async () => {
    const done = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    expect(done.body.status).toBe('succeeded');
    expectEnvelope(
      await call(svc.baseUrl, 'POST', `/v1/jobs/${done.body.id}/cancel`, { key: svc.org.testKey }),
      409,
      'conflict',
      'job_not_cancelable',
      'id',
    );
  });

  it('expires a job still queued after its queue timeout: error job_expired, charged 0, reservation released', async () => {
    const before = await paused.services.accounts.getBalance(paused.org.organization.id, true);
    const created = await call(paused.baseUrl, 'POST', '/v1/vin.read', {
      key: paused.org.liveKey,
      form: formWith('image', [imageFile('vin')]),
    });
    expect(created.status).toBe(202);
    expect(created.body.livemode).toBe(true);
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, true)).toBe(before - 3);
    expect((await paused.sweeper.sweep())?.expired).toBe(0);
    paused.clock.advance(15 * 60 * 1000 + 1000);
    expect((await paused.sweeper.sweep())?.expired).toBeGreaterThanOrEqual(1);
    const expired = await call(paused.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: paused.org.liveKey });
    expect(expired.body).toMatchObject({
      status: 'expired',
      result: null,
      credits: { reserved: 3, charged: 0 },
      error: { type: 'processing_error', code: 'job_expired' },
    });
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, true)).toBe(before);
    expect(await ledgerSum(paused.services, paused.org.organization.id, true)).toBe(before);
  });

  it('re-drives a queued job whose work message was lost', async () => {
    const created = await call(paused.baseUrl, 'POST', '/v1/plate.read', {
      key: paused.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    // take its message off the queue once the table stream has sent it, without processing: the message is lost
    const { ReceiveMessageCommand, DeleteMessageCommand } = await import('@aws-sdk/client-sqs');
    const sqs = await paused.services.clients.sqs();
    const lost: string[] = [];
    const drain = async () => {
      for (const queueUrl of [
        paused.services.infrastructure.workQueueUrl,
        paused.services.infrastructure.fastWorkQueueUrl!,
      ]) {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }));
        for (const m of out.Messages ?? []) {
          lost.push((JSON.parse(m.Body!) as { job_id: string }).job_id);
          await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
        }
      }
      return lost;
    };
    await expect.poll(drain, { timeout: 5000, interval: 50 }).toContain(created.body.id);
    paused.worker.resume();
    try {
      paused.clock.advance(61_000);
      expect((await paused.sweeper.sweep())?.redriven).toBeGreaterThanOrEqual(1);
      const settled = await eventually(async () => {
        const r = await call(paused.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: paused.org.testKey });
        return r.body.status === 'succeeded' ? r : null;
      });
      expect(settled.body.credits.charged).toBe(2);
    } finally {
      paused.worker.pause();
    }
  });
});
