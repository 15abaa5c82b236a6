import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, type InferenceSlug } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { carBox } from '../../../../lambdas/sandbox/samples/car-views.js';
import {
  CAR,
  type CarPhotoSample,
  DAMAGED,
  damageBox,
  ENGINE,
  REGISTRATION,
  SAMPLE_VEHICLE,
  TIRE,
  VIN_LABEL,
  WALKAROUND,
} from '../../../../lambdas/sandbox/samples/scenes.js';
import { boxAround, insideOutline, type PixelBox } from '../../../../lambdas/sandbox/samples/shapes.js';
import { monoLineBox } from '../../../../lambdas/sandbox/samples/text-boxes.js';
import type { BoundingBox } from '../../../../lambdas/schemas/results/common.js';
import { inPixels, intersectionOverUnion } from '../../../support/boxes.js';
import { settled } from '../../../support/endpoint-calls.js';
import { type ApiResponse, call, formWith } from '../../../support/http.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

/**
 * The repository's samples answer with the truth of their scenes, through HTTP on a started runtime
 * (docs/test-fixtures.md): text exactly, boxes overlapping the drawn geometry (IoU >= 0.5), sizes,
 * codes and durations as drawn or recorded.
 */
const svc = sharedTestService();
const SAMPLES_DIR = join(import.meta.dirname, '../../../../samples');
const bytesOf = (file: string) => readFileSync(join(SAMPLES_DIR, file));

async function run(slug: InferenceSlug, file: string, contentType: string): Promise<ApiResponse> {
  const endpoint = CATALOGUE[slug];
  const blob = new Blob([bytesOf(file)], { type: contentType });
  const created = await call(svc.baseUrl, 'POST', `/v1/${slug}?wait=true`, {
    key: svc.org.testKey,
    form: formWith(endpoint.fileField as string, [blob]),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.status).toBe('succeeded');
  return created;
}

/** Intersection over union of a result's box and the drawn pixels of a `width` x `height` image. */
function iou(box: BoundingBox, drawn: PixelBox, image: { width: number; height: number }): number {
  return intersectionOverUnion(inPixels(box, image), drawn);
}

describe('the sample fixtures answer what they show', () => {
  it('plate.read on car.jpg reads AIS 24 PL on the drawn plate; no other sample has a plate', async () => {
    const job = await run('plate.read', CAR.file, 'image/jpeg');
    expect(job.body.result.plates).toHaveLength(1);
    const [plate] = job.body.result.plates;
    expect(plate).toMatchObject({ text: 'AIS 24 PL', normalized: 'AIS24PL', region: { country: null } });
    expect(iou(plate.bbox, CAR.view.plate as PixelBox, CAR)).toBeGreaterThanOrEqual(0.5);
    for (const sample of [DAMAGED, TIRE, VIN_LABEL, REGISTRATION]) {
      expect((await run('plate.read', sample.file, 'image/jpeg')).body.result.plates, sample.file).toEqual([]);
    }
  });

  it.each([CAR, DAMAGED])(
    'vehicle.analyze and vehicle.identify on $file: the red Golf, its box and viewpoint',
    async (sample) => {
      const analysed = (await run('vehicle.analyze', sample.file, 'image/jpeg')).body.result;
      expect(analysed.vehicles).toHaveLength(1);
      expect(analysed.vehicles[0]).toMatchObject({
        body_type: 'hatchback',
        color: { name: 'red' },
        viewpoint: sample.view.viewpoint,
      });
      expect(iou(analysed.vehicles[0].bbox, carBox(sample.view), sample)).toBeGreaterThanOrEqual(0.5);
      const identified = (await run('vehicle.identify', sample.file, 'image/jpeg')).body.result;
      expect(identified.candidates[0]).toMatchObject({ make: 'Volkswagen', model: 'Golf', year_from: 2021 });
    },
  );

  it('vehicle.segment on car.jpg: the car box, a mask and a cutout at the photo’s own size', async () => {
    const result = (await run('vehicle.segment', CAR.file, 'image/jpeg')).body.result;
    expect(result.vehicle_found).toBe(true);
    expect(iou(result.bbox, carBox(CAR.view), CAR)).toBeGreaterThanOrEqual(0.5);
    for (const file of [result.mask, result.cutout]) expect(file).toMatchObject({ width: 800, height: 600 });
    expect(result.coverage_ratio).toBeGreaterThan(0.2);
    expect((await run('vehicle.segment', TIRE.file, 'image/jpeg')).body.result.vehicle_found).toBe(false);
  });

  it('render.plate and render.enhance on car.jpg: the drawn plate covered, the image at the photo’s size', async () => {
    const covered = (await run('render.plate', CAR.file, 'image/jpeg')).body.result;
    expect(covered.plates).toHaveLength(1);
    expect(iou(covered.plates[0].bbox, CAR.view.plate as PixelBox, CAR)).toBeGreaterThanOrEqual(0.5);
    expect(covered.image).toMatchObject({ width: 800, height: 600 });
    expect((await run('render.plate', TIRE.file, 'image/jpeg')).body.result.plates).toEqual([]);
    const enhanced = (await run('render.enhance', CAR.file, 'image/jpeg')).body.result;
    expect(enhanced.image).toMatchObject({ width: 800 * enhanced.scale, height: 600 * enhanced.scale });
  });

  it('vin.read on vin.jpg and registration.jpg: the VIN, its valid check digit, decoded, boxed where printed', async () => {
    const label = (await run('vin.read', VIN_LABEL.file, 'image/jpeg')).body.result.vin;
    expect(label).toMatchObject({
      text: SAMPLE_VEHICLE.vin,
      location: 'door_jamb',
      checksum_valid: true,
      decoded: { wmi: 'WVW', manufacturer: 'Volkswagen', model_year: 2021 },
    });
    expect(iou(label.bbox, monoLineBox(VIN_LABEL.vin), VIN_LABEL)).toBeGreaterThanOrEqual(0.5);
    const document = (await run('vin.read', REGISTRATION.file, 'image/jpeg')).body.result.vin;
    const printed = REGISTRATION.fields.find((field) => field.key === 'vin');
    expect(document).toMatchObject({ text: SAMPLE_VEHICLE.vin, location: 'registration_document' });
    expect(iou(document.bbox, monoLineBox(printed!.line), REGISTRATION)).toBeGreaterThanOrEqual(0.5);
    expect((await run('vin.read', CAR.file, 'image/jpeg')).body.result.vin).toBeNull();
  });

  it('document.read on registration.jpg: every printed field, exact and boxed on its value', async () => {
    const result = (await run('document.read', REGISTRATION.file, 'image/jpeg')).body.result;
    expect(result.document_type).toBe('registration_certificate');
    expect(result.fields.map((field: { key: string; value: string }) => [field.key, field.value])).toEqual(
      REGISTRATION.fields.map((field) => [field.key, field.value]),
    );
    expect(result.fields.find((field: { key: string }) => field.key === 'plate').value).toBe('AIS 24 PL');
    for (const [i, field] of REGISTRATION.fields.entries())
      expect(iou(result.fields[i].bbox, monoLineBox(field.line), REGISTRATION), field.key).toBeGreaterThanOrEqual(0.5);
    expect((await run('document.read', CAR.file, 'image/jpeg')).body.result).toMatchObject({
      document_type: 'unknown',
      fields: [],
    });
  });

  it('tire.read and tire.detect on tire.jpg: 205/55 R16 91V, DOT U2LL LMLR 2423 (week 24 of 2023), the tyre boxed', async () => {
    const tire = (await run('tire.read', TIRE.file, 'image/jpeg')).body.result.tire;
    expect(tire.size).toEqual({
      text: '205/55 R16 91V',
      width_mm: 205,
      aspect_ratio: 55,
      construction: 'R',
      rim_diameter_in: 16,
      load_index: 91,
      speed_rating: 'V',
    });
    expect(tire.dot).toMatchObject({ text: 'DOT U2LL LMLR 2423', plant_code: 'U2' });
    expect(tire.manufactured).toEqual({ week: 24, year: 2023 });
    const drawnTyre = { x: 10, y: 10, width: 580, height: 580 };
    expect(iou(tire.bbox, drawnTyre, TIRE)).toBeGreaterThanOrEqual(0.5);
    const detected = (await run('tire.detect', TIRE.file, 'image/jpeg')).body.result.tires;
    expect(detected).toHaveLength(1);
    expect(detected[0].tread_depth_mm.average).toBe(TIRE.treadDepthMm);
    expect(iou(detected[0].bbox, drawnTyre, TIRE)).toBeGreaterThanOrEqual(0.5);
    expect((await run('tire.read', CAR.file, 'image/jpeg')).body.result.tire).toBeNull();
  });

  it('damage.detect and damage.severity on damaged.jpg: the scratch, dent and rust where drawn; car.jpg has none', async () => {
    const detected = (await run('damage.detect', DAMAGED.file, 'image/jpeg')).body.result;
    expect(detected.viewpoint).toBe('right');
    expect(detected.damages.map((damage: { part: string; type: string }) => [damage.part, damage.type])).toEqual([
      ['front_right_door', 'scratch'],
      ['rear_right_door', 'dent'],
      ['rear_right_quarter_panel', 'rust'],
    ]);
    for (const [i, drawn] of DAMAGED.damages.entries())
      expect(iou(detected.damages[i].bbox, damageBox(drawn), DAMAGED)).toBeGreaterThanOrEqual(0.5);
    const graded = (await run('damage.severity', DAMAGED.file, 'image/jpeg')).body.result;
    expect(graded.overall_severity).toBe('moderate');
    expect(
      graded.damages.map((damage: { part: string; severity: string }) => [damage.part, damage.severity]).sort(),
    ).toEqual(DAMAGED.damages.map((damage) => [damage.part, damage.severity]).sort());
    const clean = (await run('damage.detect', CAR.file, 'image/jpeg')).body.result;
    expect(clean).toMatchObject({ viewpoint: 'front', damages: [] });
  });

  it.each(['parts.recognize', 'parts.segment', 'parts.decompose'] as const)(
    '%s on car.jpg and damaged.jpg: every drawn part, boxed where drawn',
    async (slug) => {
      for (const sample of [CAR, DAMAGED]) {
        const result = (await run(slug, sample.file, 'image/jpeg')).body.result;
        expect(result.viewpoint).toBe(sample.view.viewpoint);
        const found = new Map<string, { bbox: BoundingBox; mask?: { width: number }; layer?: { width: number } }>(
          result.parts.map((part: { part: string }) => [part.part, part]),
        );
        expect([...found.keys()].sort()).toEqual(sample.view.parts.map((part) => part.part).sort());
        for (const drawn of sample.view.parts) {
          const part = found.get(drawn.part)!;
          expect(iou(part.bbox, boxAround([drawn.outline]), sample), drawn.part).toBeGreaterThanOrEqual(0.5);
          const file = part.mask ?? part.layer;
          if (file) expect(file).toMatchObject({ width: sample.width, height: sample.height });
        }
      }
    },
  );

  it('engine.detect on engine.wav: 6 s at 780 rpm idle, knocking from 2 s to 4 s, 6 seconds charged', async () => {
    const job = await run('engine.detect', ENGINE.file, 'audio/wav');
    expect(job.body.result).toMatchObject({
      duration_seconds: 6,
      engine_detected: true,
      engine_type: 'petrol',
      idle_rpm_estimate: 780,
      condition: 'attention',
      findings: [{ type: 'knocking', severity: 'moderate', start_seconds: 2, end_seconds: 4 }],
    });
    expect(job.body.credits.charged).toBe(6 * CATALOGUE['engine.detect'].price);
  });

  it('video.onboard on walkaround.mp4: 6 s, the plate, the four sides it shows, 6 seconds charged', async () => {
    const ref = await uploadFile(svc.baseUrl, svc.org.testKey, 'video/mp4', bytesOf(WALKAROUND.file), WALKAROUND.file);
    const created = await call(svc.baseUrl, 'POST', '/v1/video.onboard', {
      key: svc.org.testKey,
      json: { input_ref: ref },
    });
    expect(created.status).toBe(202);
    const job = (await settled(svc.baseUrl, svc.org.testKey, created.body.id)).body;
    expect(job.status).toBe('succeeded');
    expect(job.result).toMatchObject({
      duration_seconds: 6,
      plate: { text: 'AIS 24 PL' },
      vehicle: { make: 'Volkswagen', model: 'Golf', color: { name: 'red' } },
    });
    expect(job.result.frames.map((frame: { viewpoint: string }) => frame.viewpoint)).toEqual([
      'front',
      'right',
      'rear',
      'left',
    ]);
    expect(job.result.frames[0].image).toMatchObject({ width: 640, height: 360 });
    expect(job.credits.charged).toBe(6 * CATALOGUE['video.onboard'].price);
  });

  it('viewer.hotspots on car and damaged photos: each hotspot only where its photo draws it, anchored on the drawing', async () => {
    const set: CarPhotoSample[] = [CAR, DAMAGED, CAR, DAMAGED, CAR, DAMAGED, CAR, DAMAGED];
    const refs = await Promise.all(
      set.map((sample) => uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', bytesOf(sample.file), sample.file)),
    );
    const created = await call(svc.baseUrl, 'POST', '/v1/viewer.hotspots', {
      key: svc.org.testKey,
      json: { input_refs: refs },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const job = (await settled(svc.baseUrl, svc.org.testKey, created.body.id)).body;
    expect(job.status).toBe('succeeded');
    type Hotspot = { id: string; kind: string; part: string; damage_type: string | null; feature: string | null };
    const hotspots = new Map<string, Hotspot>(job.result.hotspots.map((spot: Hotspot) => [spot.id, spot]));
    expect(
      [...hotspots.values()].filter((spot) => spot.kind === 'damage').map((spot) => [spot.part, spot.damage_type]),
    ).toEqual(DAMAGED.damages.map((damage) => [damage.part, damage.type]));
    expect(
      [...hotspots.values()].filter((spot) => spot.kind === 'feature').map((spot) => [spot.feature, spot.part]),
    ).toEqual(DAMAGED.view.features.map((drawn) => [drawn.feature, drawn.part]));
    const anchored = new Set(
      job.result.frames.flatMap((frame: { anchors: { hotspot_id: string }[] }) =>
        frame.anchors.map((anchor) => anchor.hotspot_id),
      ),
    );
    expect([...anchored].sort()).toEqual([...hotspots.keys()].sort());
    for (const [i, frame] of job.result.frames.entries()) {
      const sample = set[i] as CarPhotoSample;
      expect(frame.angle_degrees).toBe(sample.view.viewpoint === 'front' ? 0 : 90);
      // a front view shows no damage and no rim: nothing is anchored on car.jpg
      if (sample === CAR) expect(frame.anchors).toEqual([]);
      for (const anchor of frame.anchors as { hotspot_id: string; x: number; y: number }[]) {
        const spot = hotspots.get(anchor.hotspot_id) as Hotspot;
        const [x, y] = [anchor.x * sample.width, anchor.y * sample.height];
        if (spot.kind === 'damage') {
          const drawn = sample.damages.find((damage) => damage.part === spot.part && damage.type === spot.damage_type);
          const box = damageBox(drawn!);
          expect(x >= box.x && x <= box.x + box.width && y >= box.y && y <= box.y + box.height, spot.id).toBe(true);
        } else {
          const drawn = sample.view.parts.find((part) => part.part === spot.part);
          expect(drawn, `${spot.feature} on ${spot.part}`).toBeDefined();
          expect(insideOutline(x - 0.5, y - 0.5, drawn!.outline), spot.id).toBe(true);
        }
      }
    }
  });

  it('render.background on car.jpg and tire.jpg: an exterior shot drawn level, a tyre shot', async () => {
    const [image] = (await run('render.background', CAR.file, 'image/jpeg')).body.result.images;
    expect(image).toMatchObject({ category: 'exterior', position_source: 'pixels', camera_roll: 0 });
    const [tyre] = (await run('render.background', TIRE.file, 'image/jpeg')).body.result.images;
    expect(tyre).toMatchObject({ category: 'tire', plate_overlay: null });
  });

  it('every sample is recognised whatever its name: the same bytes under another filename answer the same', async () => {
    const named = await run('plate.read', CAR.file, 'image/jpeg');
    const renamed = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: (() => {
        const form = new FormData();
        form.append('image', new Blob([bytesOf(CAR.file)], { type: 'image/jpeg' }), 'IMG_0001.jpg');
        return form;
      })(),
    });
    expect(renamed.body.result).toEqual(named.body.result);
  });
});

describe('any other input', () => {
  it('answers deterministically (same bytes and params, same result) and says it is a fixture', async () => {
    const bytes = Buffer.from(`not a sample ${'x'.repeat(4000)}`);
    const send = (params: Record<string, string>) =>
      call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
        key: svc.org.testKey,
        form: formWith('image', [new Blob([bytes], { type: 'image/jpeg' })], params),
      });
    const first = await send({});
    const second = await send({});
    expect(first.status).toBe(200);
    expect(second.body.result).toEqual(first.body.result);
    expect(first.body.model_version).toMatch(/-fixture$/);
    const other = await send({ max_plates: '1' });
    expect((await send({ max_plates: '1' })).body.result).toEqual(other.body.result);
  });
});
