import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { type SideEffects, sideEffects } from '../../../support/invariants.js';
import { sharedTestService } from '../../../support/service.js';

/**
 * Broken and borderline multipart bodies. Every refusal must be `400 invalid_request` with a
 * precise code and param, and leave nothing behind: no job, no credit movement, no ledger
 * entry and no stored input object.
 */
let key: string;
let orgId: string;

const svc = sharedTestService({ workerPaused: true });
beforeAll(async () => {
  key = svc.org.testKey;
  orgId = svc.org.organization.id;
});

const snapshot = () => sideEffects(svc.services, orgId);
let before: SideEffects;
beforeEach(async () => {
  before = await snapshot();
});
afterEach(async () => {
  expect(await snapshot()).toEqual(before);
});

const post = (path: string, options: Parameters<typeof call>[3] = {}): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', path, { key, ...options });

const BOUNDARY = 'AaB03x';
function part(name: string, value: string | Buffer, file?: { filename: string; type: string }): Buffer {
  const disposition = file
    ? `form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}`
    : `form-data; name="${name}"`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}
const close = Buffer.from(`--${BOUNDARY}--\r\n`);
const multipartHeaders = (boundary = BOUNDARY) => ({ 'Content-Type': `multipart/form-data; boundary=${boundary}` });
const jpegBytes = (size = 2048) => Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(size - 2, 7)]);

describe('malformed bodies', () => {
  it('truncated inside a file part: invalid_multipart naming that part', async () => {
    const body = Buffer.concat([
      part('country', 'DE'),
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="car.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      jpegBytes(5000),
    ]);
    const response = await post('/v1/plate.read', { rawBody: body, headers: multipartHeaders() });
    expectEnvelope(response, 400, 'invalid_request', 'invalid_multipart', 'image');
    expect(response.body.error.message).toContain('truncated');
  });

  it('truncated after complete parts, before the closing boundary: invalid_multipart', async () => {
    const body = Buffer.concat([
      part('image', jpegBytes(), { filename: 'car.jpg', type: 'image/jpeg' }),
      part('country', 'DE'),
    ]);
    const response = await post('/v1/plate.read', { rawBody: body, headers: multipartHeaders() });
    expectEnvelope(response, 400, 'invalid_request', 'invalid_multipart', null);
    expect(response.body.error.message).toContain('closing boundary');
  });

  it('truncated inside a part header: invalid_multipart', async () => {
    const body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="ima`);
    expectEnvelope(
      await post('/v1/plate.read', { rawBody: body, headers: multipartHeaders() }),
      400,
      'invalid_request',
      'invalid_multipart',
      null,
    );
  });

  it('a body delimited by another boundary than the header announces: invalid_multipart naming Content-Type', async () => {
    const body = Buffer.concat([part('image', jpegBytes(), { filename: 'car.jpg', type: 'image/jpeg' }), close]);
    const response = await post('/v1/plate.read', { rawBody: body, headers: multipartHeaders('SomethingElse42') });
    expectEnvelope(response, 400, 'invalid_request', 'invalid_multipart', 'Content-Type');
    expect(response.body.error.message).toContain(BOUNDARY);
    expect(response.body.error.message).toContain('SomethingElse42');
  });

  it('a Content-Type without a boundary: invalid_multipart naming Content-Type', async () => {
    const body = Buffer.concat([part('image', jpegBytes(), { filename: 'car.jpg', type: 'image/jpeg' }), close]);
    expectEnvelope(
      await post('/v1/plate.read', { rawBody: body, headers: { 'Content-Type': 'multipart/form-data' } }),
      400,
      'invalid_request',
      'invalid_multipart',
      'Content-Type',
    );
    expectEnvelope(
      await post('/v1/plate.read', {
        rawBody: body,
        headers: { 'Content-Type': 'multipart/form-data; charset=utf-8' },
      }),
      400,
      'invalid_request',
      'invalid_multipart',
      'Content-Type',
    );
  });

  it('a body that is not multipart at all, or empty', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { rawBody: 'image=car.jpg', headers: multipartHeaders() }),
      400,
      'invalid_request',
      'invalid_multipart',
      'Content-Type',
    );
    expectEnvelope(
      await post('/v1/plate.read', { rawBody: '', headers: multipartHeaders() }),
      400,
      'invalid_request',
      'invalid_multipart',
      null,
    );
  });
});

describe('files', () => {
  it('an oversized file (10 MB + 1 byte) among several: file_too_large naming the field', async () => {
    const big = new Blob([Buffer.alloc(10 * 1024 * 1024 + 1, 1)], { type: 'image/jpeg' });
    const response = await post('/v1/render.background', {
      form: formWith('images', [imageFile('a'), big, imageFile('c')]),
    });
    expectEnvelope(response, 400, 'invalid_request', 'file_too_large', 'images');
  });

  it('31 images for render.background: too_many_files naming images', async () => {
    const files = Array.from({ length: 31 }, (_, i) => imageFile(`f${i}`, 'image/jpeg', 300));
    expectEnvelope(
      await post('/v1/render.background', { form: formWith('images', files) }),
      400,
      'invalid_request',
      'too_many_files',
      'images',
    );
    expectEnvelope(
      await post('/v1/render.background', { form: formWith('images[]', files) }),
      400,
      'invalid_request',
      'too_many_files',
      'images',
    );
  });

  it('a single-file field sent twice: too_many_files naming the field', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [imageFile('a'), imageFile('b')]) }),
      400,
      'invalid_request',
      'too_many_files',
      'image',
    );
  });

  it('an empty file: parameter_invalid naming the field', async () => {
    const body = Buffer.concat([part('image', Buffer.alloc(0), { filename: 'empty.jpg', type: 'image/jpeg' }), close]);
    const response = await post('/v1/plate.read', { rawBody: body, headers: multipartHeaders() });
    expectEnvelope(response, 400, 'invalid_request', 'parameter_invalid', 'image');
    expect(response.body.error.message).toContain('empty');
    const form = formWith('images', [imageFile('a'), new Blob([], { type: 'image/jpeg' })]);
    expectEnvelope(
      await post('/v1/render.background', { form }),
      400,
      'invalid_request',
      'parameter_invalid',
      'images',
    );
  });

  it('an unknown file field: parameter_unknown naming it', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('picture', [imageFile()]) }),
      400,
      'invalid_request',
      'parameter_unknown',
      'picture',
    );
    const form = formWith('images', [imageFile()]);
    form.append('logo', imageFile('logo'), 'logo.png');
    expectEnvelope(await post('/v1/render.background', { form }), 400, 'invalid_request', 'parameter_unknown', 'logo');
  });

  it('a file of the wrong media type: parameter_invalid naming the field', async () => {
    expectEnvelope(
      await post('/v1/render.background', {
        form: formWith('images', [imageFile('a'), new Blob(['%PDF-1.7'], { type: 'application/pdf' })]),
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'images',
    );
  });

  it('no file at all: missing_input naming the file field', async () => {
    expectEnvelope(
      await post('/v1/render.background', { form: formWith('images', [], { background: 'default' }) }),
      400,
      'invalid_request',
      'missing_input',
      'images',
    );
    // a text field under the file field's name is not a file: the message says how to send one
    const textOnly = await post('/v1/plate.read', { form: formWith('x', [], { image: 'car.jpg' }) });
    expectEnvelope(textOnly, 400, 'invalid_request', 'missing_input', 'image');
    expect(textOnly.body.error.message).toContain('no filename');
  });

  it('a file part without a filename: missing_input alone, parameter_invalid beside a real file, both saying it lacks a filename', async () => {
    const unnamed = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const alone = await post('/v1/plate.read', {
      rawBody: Buffer.concat([unnamed, jpegBytes(), Buffer.from('\r\n'), close]),
      headers: multipartHeaders(),
    });
    expectEnvelope(alone, 400, 'invalid_request', 'missing_input', 'image');
    expect(alone.body.error.message).toContain('has no filename');
    const unnamedImage = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="images"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const beside = await post('/v1/render.background', {
      rawBody: Buffer.concat([
        part('images', jpegBytes(), { filename: 'a.jpg', type: 'image/jpeg' }),
        unnamedImage,
        jpegBytes(),
        Buffer.from('\r\n'),
        close,
      ]),
      headers: multipartHeaders(),
    });
    expectEnvelope(beside, 400, 'invalid_request', 'parameter_invalid', 'images');
    expect(beside.body.error.message).toContain('has no filename');
  });
});

describe('text fields', () => {
  it('an unknown text field: parameter_unknown naming it', async () => {
    expectEnvelope(
      await post('/v1/render.background', { form: formWith('images', [imageFile()], { backdrop: 'default' }) }),
      400,
      'invalid_request',
      'parameter_unknown',
      'backdrop',
    );
  });

  it('input_ref / input_refs in multipart fields: parameter_invalid, they travel in JSON', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [imageFile()], { input_ref: 'upl_11111111' }) }),
      400,
      'invalid_request',
      'parameter_invalid',
      'input_ref',
    );
    expectEnvelope(
      await post('/v1/render.background', { form: formWith('images', [imageFile()], { input_refs: 'upl_11111111' }) }),
      400,
      'invalid_request',
      'parameter_invalid',
      'input_refs',
    );
  });

  it('a non-ASCII field name is named as sent (UTF-8), not as its bytes read in latin1', async () => {
    const raw = Buffer.concat([
      part('images', jpegBytes(), { filename: 'a.jpg', type: 'image/jpeg' }),
      part('größe', 'x'),
      close,
    ]);
    expectEnvelope(
      await post('/v1/render.background', { rawBody: raw, headers: multipartHeaders() }),
      400,
      'invalid_request',
      'parameter_unknown',
      'größe',
    );
  });

  it('a single-valued parameter sent twice: parameter_invalid naming it', async () => {
    const form = formWith('images', [imageFile()]);
    form.append('background', 'default');
    form.append('background', 'showroom');
    expectEnvelope(
      await post('/v1/render.background', { form }),
      400,
      'invalid_request',
      'parameter_invalid',
      'background',
    );
  });

  it('an over-long text field: parameter_invalid naming it', async () => {
    expectEnvelope(
      await post('/v1/render.background', {
        form: formWith('images', [imageFile()], { traceability: 'x'.repeat(70 * 1024) }),
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'traceability',
    );
  });
});

describe('well-formed bodies', () => {
  it('non-ASCII filenames keep their folders and characters (raw UTF-8, as curl and browsers send them)', async () => {
    const raw = Buffer.concat([
      part('images', jpegBytes(), { filename: 'fahrzeug/außen/vorne_ü.jpg', type: 'image/jpeg' }),
      part('images', jpegBytes(3000), { filename: 'innen/größe_é.jpg', type: 'image/jpeg' }),
      close,
    ]);
    const response = await post('/v1/render.background', { rawBody: raw, headers: multipartHeaders() });
    expect(response.status).toBe(202);
    const job = await svc.services.jobs.get(response.body.id);
    expect(job?.inputs.map((input) => input.filename)).toEqual(['fahrzeug/außen/vorne_ü.jpg', 'innen/größe_é.jpg']);
    await post(`/v1/jobs/${response.body.id}/cancel`);
    before = await snapshot();
  });

  it('images[] and images are the same field; folders in filenames are kept', async () => {
    const form = new FormData();
    form.append('images[]', imageFile('one'), 'stock-12/interior/one.jpg');
    form.append('images', imageFile('two'), 'two.jpg');
    form.append('return_cutout', 'true');
    const response = await post('/v1/render.background', { form });
    expect(response.status).toBe(202);
    const job = await svc.services.jobs.get(response.body.id);
    expect(job?.inputs.map((input) => [input.index, input.filename])).toEqual([
      [0, 'stock-12/interior/one.jpg'],
      [1, 'two.jpg'],
    ]);
    expect(job?.params).toMatchObject({ return_cutout: true });
    // not a refusal: account for what it created, then cancel it
    await post(`/v1/jobs/${response.body.id}/cancel`);
    before = await snapshot();
  });
});
