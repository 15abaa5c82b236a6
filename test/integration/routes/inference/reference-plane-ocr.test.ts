import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_PLANE_ENDPOINTS } from '../../../../lambdas/domain/catalogue/plane-declaration.js';
import { imageSize } from '../../../../lambdas/domain/jobs/image-size.js';
import { Rng } from '../../../../lambdas/sandbox/prng.js';
import { CAR, REGISTRATION, SAMPLE_VEHICLE, VIN_LABEL } from '../../../../lambdas/sandbox/samples/scenes.js';
import { resultSchemas } from '../../../../lambdas/schemas/results/index.js';
import { inPixels, intersectionOverUnion } from '../../../support/boxes.js';
import { settled } from '../../../support/endpoint-calls.js';
import { call, expectEnvelope, formWith } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import {
  type DrawnBox,
  documentPage,
  plateScene,
  randomDocumentLines,
  randomPlate,
  randomVin,
  vinLabel,
} from '../../../support/rendered-text.js';
import { sharedTestService, type TestService } from '../../../support/service.js';

// The reference plane reads what is written (docs/internals/inference-plane.md, "The reference plane"): live
// calls of the endpoints it declares are answered by OCR on images this test draws itself, with
// text it draws at random from a fixed seed; every other endpoint is refused for live keys.

const SEED = 'reference-plane-ocr-1';

/** Characters in common between what was written and what was read, as a share of what was written (edit distance). */
function characterAccuracy(written: string, read: string): number {
  let previous = Array.from({ length: read.length + 1 }, (_, index) => index);
  for (let i = 1; i <= written.length; i++) {
    const current = [i];
    for (let j = 1; j <= read.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (written[i - 1] === read[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return 1 - (previous[read.length] as number) / written.length;
}

const SAMPLES_DIR = join(import.meta.dirname, '../../../../samples');
const sample = (file: string) => new Blob([readFileSync(join(SAMPLES_DIR, file))], { type: 'image/jpeg' });

async function liveRead(svc: TestService, slug: string, image: Buffer | Blob, fields: Record<string, string> = {}) {
  const file = image instanceof Blob ? image : new Blob([image], { type: 'image/png' });
  const submitted = await call(svc.baseUrl, 'POST', `/v1/${slug}`, {
    key: svc.org.liveKey,
    form: formWith('image', [file], fields),
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const job = await settled(svc.baseUrl, svc.org.liveKey, submitted.body.id);
  expect(job.body.status, JSON.stringify(job.body.error)).toBe('succeeded');
  expect(job.body.livemode).toBe(true);
  expect(resultSchemas[slug as keyof typeof resultSchemas].safeParse(job.body.result).success).toBe(true);
  return job.body.result;
}

describe('the reference plane under the local runtime', () => {
  const svc = sharedTestService({ livePlane: 'reference' });
  const rng = Rng.fromParts(SEED);

  it('reads back a rendered VIN exactly, with its North American check digit and a box on it', async () => {
    const vin = randomVin(rng.fork('vin'));
    const label = await vinLabel(vin);
    const result = await liveRead(svc, 'vin.read', label.png);
    expect(result.vin.text).toBe(vin);
    expect(result.vin.checksum_valid).toBe(true);
    expect(intersectionOverUnion(result.vin.bbox, label.lines[0] as DrawnBox)).toBeGreaterThanOrEqual(0.5);
  });

  it('locates a rendered plate on a car and reads it back exactly, boxed where it is drawn', async () => {
    const plate = randomPlate(rng.fork('plate'));
    const scene = await plateScene(plate, rng.fork('plate-scene'));
    const result = await liveRead(svc, 'plate.read', scene.png);
    expect(result.plates.map((read: { normalized: string }) => read.normalized)).toEqual([plate.replaceAll(' ', '')]);
    expect(result.plates[0].text).toBe(plate);
    expect(intersectionOverUnion(result.plates[0].bbox, scene.lines[0] as DrawnBox)).toBeGreaterThanOrEqual(0.5);
  });

  it('reads a rendered three-line document at 95 % of its characters or more, a box on each line', async () => {
    const lines = randomDocumentLines(rng.fork('document'));
    const page = await documentPage(lines);
    const result = await liveRead(svc, 'document.read', page.png, { return_raw_text: 'true' });
    const read = result.fields.map((field: { value: string }) => field.value);
    expect(read).toHaveLength(3);
    expect(characterAccuracy(lines.join('\n'), read.join('\n'))).toBeGreaterThanOrEqual(0.95);
    for (const [index, field] of result.fields.entries())
      expect(intersectionOverUnion(field.bbox, page.lines[index] as DrawnBox)).toBeGreaterThanOrEqual(0.5);
    expect(result.raw_text).toContain(read[0]);
  });

  it("reads the repository's own samples as they are printed: car.jpg's plate, vin.jpg's VIN, registration.jpg's values", async () => {
    const plate = await liveRead(svc, 'plate.read', sample(CAR.file), { return_crops: 'true' });
    expect(plate.plates.map((read: { text: string }) => read.text)).toEqual([SAMPLE_VEHICLE.plate]);
    const drawnPlate = CAR.view.plate as DrawnBox;
    const read = inPixels(plate.plates[0].bbox, CAR);
    expect(intersectionOverUnion(read, drawnPlate)).toBeGreaterThanOrEqual(0.5);
    // the crop is the plate cut out of the photo: a PNG a little larger than the characters read
    const { crop } = plate.plates[0];
    expect(crop).toMatchObject({ content_type: 'image/png' });
    expect(crop.width).toBeGreaterThanOrEqual(Math.floor(read.width));
    expect(crop.width).toBeLessThanOrEqual(Math.ceil(read.width * 1.5));
    const bytes = new Uint8Array(await (await fetch(crop.url)).arrayBuffer());
    expect(imageSize(bytes)).toEqual({ width: crop.width, height: crop.height });
    const vin = await liveRead(svc, 'vin.read', sample(VIN_LABEL.file));
    expect(vin.vin).toMatchObject({ text: SAMPLE_VEHICLE.vin, checksum_valid: true });
    const registration = await liveRead(svc, 'document.read', sample(REGISTRATION.file));
    const values = registration.fields.map((field: { value: string }) => field.value);
    for (const printed of [SAMPLE_VEHICLE.plate, SAMPLE_VEHICLE.vin, SAMPLE_VEHICLE.make, SAMPLE_VEHICLE.model])
      expect(values).toContain(printed);
  });

  it('refuses a live call of an endpoint it does not declare, without moving a credit', async () => {
    expect(REFERENCE_PLANE_ENDPOINTS).not.toContain('tire.read');
    const orgId = svc.org.organization.id;
    const before = {
      balance: await svc.services.accounts.getBalance(orgId, true),
      ledger: await ledgerSum(svc.services, orgId, true),
    };
    const page = await documentPage(['Tyre 205/55 R16 91V']);
    const refused = await call(svc.baseUrl, 'POST', '/v1/tire.read', {
      key: svc.org.liveKey,
      form: formWith('image', [new Blob([page.png], { type: 'image/png' })]),
    });
    expectEnvelope(refused, 400, 'invalid_request', 'endpoint_not_available', null);
    expect({
      balance: await svc.services.accounts.getBalance(orgId, true),
      ledger: await ledgerSum(svc.services, orgId, true),
    }).toEqual(before);
  });
});
