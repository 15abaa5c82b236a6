import { createHash } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { inputObjectKey } from '../../../../lambdas/domain/jobs/inputs.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { call, eventually, formWith, imageFile } from '../../../support/http.js';
import { download } from '../../../support/images.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

/**
 * Which multipart inputs reach the object store. Live mode stores every one before the job
 * exists (the inference plane reads them). Test mode stores one only when the endpoint's sandbox model
 * can return an input unchanged (render.background's passthrough); every other sandbox model works
 * from the SHA-256 taken while parsing, so the job record keeps the input's metadata and key
 * while no object exists under it.
 */
let orgId: string;
const planeSaw: JobRecord[] = [];

// a live plane that accepts and stays silent: live jobs are admitted and handed over, never settled
const svc = sharedTestService({
  livePlane: {
    submit: async (job) => {
      planeSaw.push(job);
      return true;
    },
  },
});
beforeAll(() => {
  orgId = svc.org.organization.id;
});

async function storedUnder(prefix: string): Promise<string[]> {
  const listed = await (await svc.services.clients.s3()).send(
    new ListObjectsV2Command({ Bucket: svc.services.infrastructure.bucketName, Prefix: prefix }),
  );
  return (listed.Contents ?? []).map((object) => object.Key!);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('multipart inputs in test mode', () => {
  it('a plate.read job succeeds with the result its bytes give as an upload, and no input object is kept', async () => {
    const bytes = Buffer.from(await imageFile('unstored-plate').arrayBuffer());
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('unstored-plate')]),
    });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ status: 'succeeded', livemode: false, credits: { reserved: 2, charged: 2 } });

    // the same bytes by upload reference, read back and hashed by the worker, give the same result
    const ref = await uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', bytes, 'asset-0.jpg');
    const viaUpload = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      json: { input_ref: ref },
    });
    expect(viaUpload.body.status).toBe('succeeded');
    expect(job.body.result).toEqual(viaUpload.body.result);

    // the record still describes the input, under the key it would have had
    const record = await svc.services.jobs.get(job.body.id);
    expect(record!.inputs).toEqual([
      {
        index: 0,
        filename: 'asset-0.jpg',
        content_type: 'image/jpeg',
        size_bytes: bytes.length,
        sha256: sha256(bytes),
        object_key: inputObjectKey(orgId, job.body.id, 0),
      },
    ]);
    expect(await storedUnder(`inputs/${orgId}/${job.body.id}/`)).toEqual([]);
  });

  it('a render.background passthrough keeps its input and returns it byte for byte', async () => {
    const source = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 'kept for passthrough')]);
    const form = new FormData();
    form.append('images', new Blob([source], { type: 'image/jpeg' }), 'front.jpg');
    form.append('background', '');
    const job = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', { key: svc.org.testKey, form });
    expect(job.status).toBe(200);
    const [entry] = job.body.result.images;
    expect(entry).toMatchObject({
      status: 'passthrough',
      image: { content_type: 'image/jpeg', size_bytes: source.length },
    });
    expect((await download(entry.image.url)).bytes.equals(source)).toBe(true);
    expect(await storedUnder(`inputs/${orgId}/${job.body.id}/`)).toEqual([inputObjectKey(orgId, job.body.id, 0)]);
  });
});

describe('multipart inputs in live mode', () => {
  it('are stored before the job exists, under the key the inference plane is sent', async () => {
    const bytes = Buffer.from(await imageFile('stored-live-plate').arrayBuffer());
    const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('stored-live-plate')]),
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ livemode: true });
    const key = inputObjectKey(orgId, created.body.id, 0);
    expect(await storedUnder(`inputs/${orgId}/${created.body.id}/`)).toEqual([key]);
    expect(await svc.services.objects.sha256(key)).toBe(sha256(bytes));
    const record = await svc.services.jobs.get(created.body.id);
    expect(record!.inputs[0]).toMatchObject({ object_key: key, sha256: sha256(bytes), size_bytes: bytes.length });
    const handed = await eventually(async () => planeSaw.find((job) => job.id === created.body.id));
    expect(handed.inputs[0]!.object_key).toBe(key);
  });
});
