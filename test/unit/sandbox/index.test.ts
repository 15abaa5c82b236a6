import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { CATALOGUE, ENDPOINT_SLUGS, type InferenceSlug } from '../../../lambdas/domain/catalogue/catalogue.js';
import { sampleSandboxRequest, sandboxModels } from '../../../lambdas/sandbox/index.js';
import type { SandboxAsset, SandboxOutput, SandboxRequest } from '../../../lambdas/sandbox/types.js';
import { checkDigit } from '../../../lambdas/sandbox/vin.js';
import { exampleParams } from '../../../lambdas/schemas/params/examples.js';
import { paramSchemas } from '../../../lambdas/schemas/params/index.js';
import {
  fileRefKeys,
  replaceFileRefs,
  resultSchemas,
  type SignedFile,
} from '../../../lambdas/schemas/results/index.js';

const SLUGS = ENDPOINT_SLUGS.filter((slug): slug is InferenceSlug => slug !== 'inspections');
const OUTCOME_SCENARIOS = ['empty_result', 'low_confidence'] as const;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function assets(slug: InferenceSlug, count: number, salt = ''): SandboxAsset[] {
  const { contentType, filename } = sampleSandboxRequest(slug).assets[0] ?? {
    contentType: 'image/jpeg',
    filename: 'x.jpg',
  };
  return Array.from({ length: count }, (_, index) => ({
    index,
    filename: `${index}-${filename}`,
    contentType,
    sizeBytes: 1000 + index,
    sha256: sha(`${slug}:${salt}:${index}`),
  }));
}

/** A request like the sample one, but with inputs derived from `salt`. */
function requestFor(slug: InferenceSlug, salt: string, scenario: SandboxRequest['scenario'] = null): SandboxRequest {
  const sample = sampleSandboxRequest(slug);
  return { ...sample, assets: assets(slug, sample.assets.length, salt), scenario };
}

/** What the read path does: swap every `{ file_key }` for a signed file. */
function toPublic(output: SandboxOutput): unknown {
  return replaceFileRefs(output.result, (key): SignedFile => {
    const file = output.files[key];
    if (!file) throw new Error(`result references missing file ${key}`);
    return {
      url: `https://files.example.test/${encodeURIComponent(key)}?X-Signature=abc`,
      expires_at: 1_800_000_000,
      content_type: file.contentType,
      width: file.width ?? null,
      height: file.height ?? null,
      size_bytes: file.bytes.byteLength,
    };
  });
}

/** Every number under a key that reports confidence, anywhere in the result. */
function confidences(value: unknown): number[] {
  if (Array.isArray(value)) return value.flatMap(confidences);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    (key === 'confidence' || key.endsWith('_confidence')) && typeof item === 'number' ? [item] : confidences(item),
  );
}

function expectedBillableUnits(slug: InferenceSlug, output: SandboxOutput, assetCount: number): number {
  switch (CATALOGUE[slug].metering) {
    case 'per_image':
      return assetCount;
    case 'per_second':
      return Math.ceil(output.result.duration_seconds as number);
    default:
      return 1;
  }
}

/** The natural empty answer of each endpoint that supports `empty_result`. */
const EMPTY_ANSWERS: Partial<Record<InferenceSlug, (result: Record<string, any>) => boolean>> = {
  'vehicle.analyze': (r) => r.vehicles.length === 0 && r.primary_vehicle_index === null,
  'vehicle.segment': (r) => r.vehicle_found === false && r.mask === null && r.cutout === null,
  'vehicle.identify': (r) => r.candidates.length === 0,
  'vin.read': (r) => r.vin === null,
  'plate.read': (r) => r.plates.length === 0,
  'document.read': (r) => r.document_type === 'unknown' && r.fields.length === 0,
  'dashboard.read': (r) => r.odometer === null && r.fuel_level === null && r.warning_lights.length === 0,
  'engine.detect': (r) => r.findings.length === 0 && r.condition === 'normal',
  'video.onboard': (r) => r.vehicle === null && r.frames.length === 0 && r.missing_viewpoints.length === 8,
  'damage.detect': (r) => r.damages.length === 0,
  'damage.severity': (r) => r.damages.length === 0 && r.overall_severity === 'none',
  'tire.read': (r) => r.tire === null,
  'tire.detect': (r) => r.tires.length === 0,
  'parts.recognize': (r) => r.parts.length === 0,
  'parts.segment': (r) => r.parts.length === 0 && r.label_map === null,
  'parts.decompose': (r) => r.parts.length === 0 && r.groups.length === 0,
  'pricing.vehicle': (r) => r.valuation === null && r.comparables_count === 0,
  'pricing.repair': (r) => r.line_items.length === 0 && r.totals.gross === 0,
  'render.plate': (r) => r.plates.length === 0,
  'viewer.hotspots': (r) =>
    r.hotspots.length === 0 && r.frames.every((frame: { anchors: unknown[] }) => frame.anchors.length === 0),
};

/** Where multi-asset endpoints list their per-input entries. */
const PER_ASSET_LISTS: Partial<Record<InferenceSlug, string>> = {
  'render.background': 'images',
  'render.360': 'frames',
  'render.video': 'scenes',
  'viewer.hotspots': 'frames',
};

function pngHeader(bytes: Uint8Array): { width: number; height: number; colorType: number } {
  const view = Buffer.from(bytes);
  expect(view.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20), colorType: view[25] as number };
}

/** Inflates the IDAT data and checks it holds exactly one filtered scanline per row. */
function expectDecodablePng(bytes: Uint8Array, width: number, height: number): void {
  const view = Buffer.from(bytes);
  const channels = { 0: 1, 2: 3, 6: 4 }[pngHeader(bytes).colorType] ?? 0;
  const idat: Buffer[] = [];
  for (let offset = 8; offset < view.length; ) {
    const length = view.readUInt32BE(offset);
    if (view.toString('ascii', offset + 4, offset + 8) === 'IDAT')
      idat.push(view.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * channels));
}

describe('endpoint coverage', () => {
  it('has a sandbox model, a params schema and a result schema for each of the 24 inference endpoints', () => {
    expect(SLUGS).toHaveLength(24);
    for (const slug of SLUGS) {
      expect(sandboxModels[slug], slug).toBeTypeOf('function');
      expect(paramSchemas[slug], slug).toBeInstanceOf(z.ZodMiniObject);
      expect(resultSchemas[slug], slug).toBeInstanceOf(z.ZodMiniType);
    }
    expect(Object.keys(sandboxModels).sort()).toEqual([...SLUGS].sort());
    expect(Object.keys(paramSchemas).sort()).toEqual([...SLUGS].sort());
    expect(Object.keys(resultSchemas).sort()).toEqual([...SLUGS].sort());
  });
});

describe.each(SLUGS)('%s sandbox model', (slug) => {
  const endpoint = CATALOGUE[slug];
  const scenarios = [null, ...OUTCOME_SCENARIOS.filter((scenario) => endpoint.scenarios.includes(scenario))];

  it.each(scenarios)('matches the public result schema exactly (scenario %s), across many inputs', (scenario) => {
    for (let seed = 0; seed < 12; seed++) {
      const output = sandboxModels[slug](requestFor(slug, `seed-${seed}`, scenario));
      const published = toPublic(output);
      const parsed = resultSchemas[slug].safeParse(published);
      expect(parsed.error, JSON.stringify(parsed.error?.issues)).toBeUndefined();
      // no field the schema does not declare (it would be silently stripped)
      expect(parsed.data).toEqual(published);
      // every produced file is referenced, and every reference resolves
      expect(new Set(fileRefKeys(output.result))).toEqual(new Set(Object.keys(output.files)));
    }
  });

  it('bills the units of its metering, never above the admission reservation', () => {
    for (let seed = 0; seed < 12; seed++) {
      const request = requestFor(slug, `units-${seed}`);
      const output = sandboxModels[slug](request);
      expect(output.billableUnits).toBe(expectedBillableUnits(slug, output, request.assets.length));
      expect(output.billableUnits * endpoint.price).toBeLessThanOrEqual(
        endpoint.price * Math.max(1, request.assets.length) * endpoint.reserveUnitsPerAsset,
      );
    }
  });

  it('is deterministic: the same input gives the identical output', () => {
    const first = sandboxModels[slug](requestFor(slug, 'same'));
    const second = sandboxModels[slug]({ ...requestFor(slug, 'same'), jobId: 'job_Another1111' });
    expect(second).toEqual(first);
  });

  it('gives a different output for different input', () => {
    const base = requestFor(slug, 'a');
    const first = sandboxModels[slug](base);
    // pricing endpoints take no file: their input is their parameters
    const other =
      endpoint.inputKind === 'json' ? { ...base, params: { ...base.params, country: 'FR' } } : requestFor(slug, 'b');
    expect(sandboxModels[slug](other)).not.toEqual(first);
  });

  if (endpoint.scenarios.includes('empty_result')) {
    it('answers empty_result with its natural empty answer, billed as normal', () => {
      const normal = sandboxModels[slug](requestFor(slug, 'empty'));
      const empty = sandboxModels[slug](requestFor(slug, 'empty', 'empty_result'));
      expect(EMPTY_ANSWERS[slug]?.(empty.result), JSON.stringify(empty.result)).toBe(true);
      expect(empty.billableUnits).toBe(normal.billableUnits);
    });
  }

  if (endpoint.scenarios.includes('low_confidence')) {
    it('answers low_confidence with the same shape, confidences below 0.5 and needs_review set', () => {
      for (let seed = 0; seed < 12; seed++) {
        const normal = sandboxModels[slug](requestFor(slug, `low-${seed}`));
        const low = sandboxModels[slug](requestFor(slug, `low-${seed}`, 'low_confidence'));
        const scores = confidences(low.result);
        expect(scores.length).toBeGreaterThan(0);
        for (const score of scores) expect(score).toBeLessThan(0.5);
        expect(low.result.needs_review).toBe(true);
        expect(Object.keys(low.result)).toEqual(Object.keys(normal.result));
        expect(low.billableUnits).toBe(normal.billableUnits);
      }
    });
  }

  it('produces real files whose bytes match their declared type and size', () => {
    for (let seed = 0; seed < 4; seed++) {
      const output = sandboxModels[slug](requestFor(slug, `files-${seed}`));
      for (const [key, file] of Object.entries(output.files)) {
        if (file.contentType === 'image/png') {
          expect([...file.bytes.subarray(0, 8)], key).toEqual(PNG_SIGNATURE);
          const header = pngHeader(file.bytes);
          expect({ width: header.width, height: header.height }, key).toEqual({
            width: file.width,
            height: file.height,
          });
          expectDecodablePng(file.bytes, header.width, header.height);
        } else if (file.contentType === 'image/gif') {
          const view = Buffer.from(file.bytes);
          expect(view.toString('ascii', 0, 6)).toBe('GIF89a');
          expect({ width: view.readUInt16LE(6), height: view.readUInt16LE(8) }).toEqual({
            width: file.width,
            height: file.height,
          });
          expect(view[view.length - 1]).toBe(0x3b);
        } else {
          throw new Error(`${key}: unexpected content type ${file.contentType}`);
        }
      }
    }
  });
});

describe('file-producing endpoints', () => {
  const producers: InferenceSlug[] = [
    'vehicle.segment',
    'parts.segment',
    'parts.decompose',
    'render.background',
    'render.enhance',
    'render.plate',
    'render.360',
    'render.video',
    'video.onboard',
  ];

  it.each(producers)('%s returns at least one file', (slug) => {
    expect(Object.keys(sandboxModels[slug](requestFor(slug, 'produce')).files).length).toBeGreaterThan(0);
  });

  it.each([
    ['4:3', 64, 48],
    ['16:9', 64, 36],
    ['3:2', 60, 40],
  ] as const)('render.background renders %s as %ix%i', (aspectRatio, width, height) => {
    const request = {
      ...requestFor('render.background', 'aspect'),
      params: { aspect_ratio: aspectRatio, return_cutout: true },
    };
    const output = sandboxModels['render.background'](request);
    for (const file of Object.values(output.files)) expect([file.width, file.height]).toEqual([width, height]);
  });

  it('render.background returns the source image without a cutout when background is empty', () => {
    const request = { ...requestFor('render.background', 'skip'), params: { background: '', return_cutout: true } };
    const [entry] = (sandboxModels['render.background'](request).result.images as Record<string, unknown>[]) ?? [];
    expect(entry).toMatchObject({ status: 'passthrough', background: '', cutout: null });
  });

  it('render.background echoes traceability unchanged', () => {
    const request = { ...requestFor('render.background', 'trace'), params: { traceability: 'stock/4711 ü' } };
    const images = sandboxModels['render.background'](request).result.images as { traceability: string }[];
    expect(images.every((image) => image.traceability === 'stock/4711 ü')).toBe(true);
  });

  it('never claims a JPEG or WebP content type for the PNG bytes it produces', () => {
    for (const format of ['jpg', 'png', 'webp']) {
      const output = sandboxModels['render.enhance']({
        ...requestFor('render.enhance', 'format'),
        params: { output_format: format },
      });
      const published = toPublic(output) as { image: SignedFile; output_format: string };
      expect(published.image.content_type).toBe('image/png');
      expect(published.output_format).toBe(format);
    }
  });
});

describe('multi-asset endpoints', () => {
  it.each(Object.entries(PER_ASSET_LISTS) as [InferenceSlug, string][])(
    '%s returns one entry per input, in input order',
    (slug, listKey) => {
      const endpoint = CATALOGUE[slug];
      for (const count of [
        endpoint.minAssets,
        Math.min(endpoint.maxAssets, endpoint.minAssets + 5),
        endpoint.maxAssets,
      ]) {
        const inputs = assets(slug, count, `order-${count}`);
        const output = sandboxModels[slug]({ ...sampleSandboxRequest(slug), assets: inputs });
        const entries = output.result[listKey] as { index: number; filename: string | null }[];
        expect(entries.map((entry) => [entry.index, entry.filename])).toEqual(
          inputs.map((asset) => [asset.index, asset.filename]),
        );
        expect(output.billableUnits).toBe(endpoint.metering === 'per_image' ? count : 1);
      }
    },
  );

  it('render.background results for an image do not depend on its neighbours', () => {
    const inputs = assets('render.background', 3, 'neighbours');
    const alone = sandboxModels['render.background']({
      ...sampleSandboxRequest('render.background'),
      assets: [inputs[1] as SandboxAsset],
    });
    const together = sandboxModels['render.background']({
      ...sampleSandboxRequest('render.background'),
      assets: inputs,
    });
    const strip = (entry: Record<string, unknown>) => ({
      ...entry,
      index: 0,
      filename: null,
      image: null,
      cutout: null,
    });
    const aloneEntry = (alone.result.images as Record<string, unknown>[])[0] as Record<string, unknown>;
    const togetherEntry = (together.result.images as Record<string, unknown>[])[1] as Record<string, unknown>;
    expect(strip(togetherEntry)).toEqual(strip(aloneEntry));
  });
});

describe('domain realism', () => {
  it('vin.read returns 17-character VINs with a valid check digit', () => {
    for (let seed = 0; seed < 30; seed++) {
      const vin = sandboxModels['vin.read'](requestFor('vin.read', `vin-${seed}`)).result.vin as {
        text: string;
        checksum_valid: boolean;
      };
      expect(vin.text).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(vin.text[8]).toBe(checkDigit(vin.text));
      expect(vin.checksum_valid).toBe(true);
    }
  });

  it('computes the check digit of a published example VIN', () => {
    expect(checkDigit('1M8GDM9AXKP042788')).toBe('X');
  });

  it('pricing.repair totals add up', () => {
    const result = sandboxModels['pricing.repair'](requestFor('pricing.repair', 'totals')).result as {
      line_items: { labour: number; parts: number; paint: number; total: number }[];
      totals: { labour: number; parts: number; paint: number; net: number; tax: number; gross: number };
      gross_range: { low: number; high: number };
    };
    for (const item of result.line_items) expect(item.total).toBe(item.labour + item.parts + item.paint);
    expect(result.totals.net).toBe(result.totals.labour + result.totals.parts + result.totals.paint);
    expect(result.totals.gross).toBe(result.totals.net + result.totals.tax);
    expect(result.gross_range.low).toBeLessThan(result.totals.gross);
    expect(result.gross_range.high).toBeGreaterThan(result.totals.gross);
  });

  it('pricing.vehicle ranges are ordered low <= mid <= high', () => {
    const valuation = sandboxModels['pricing.vehicle'](requestFor('pricing.vehicle', 'ranges')).result
      .valuation as Record<string, { low: number; mid: number; high: number }>;
    for (const range of Object.values(valuation)) {
      expect(range.low).toBeLessThanOrEqual(range.mid);
      expect(range.mid).toBeLessThanOrEqual(range.high);
    }
  });

  it('sandbox models fill parameter defaults themselves when given none', () => {
    const request = { ...requestFor('plate.read', 'defaults'), params: {} };
    expect(() => sandboxModels['plate.read'](request)).not.toThrow();
  });
});

describe.each(SLUGS)('%s params schema', (slug) => {
  const schema = paramSchemas[slug];

  it('accepts its example parameters, and re-parsing its own output changes nothing', () => {
    const parsed = schema.parse(exampleParams[slug]);
    expect(schema.parse(parsed)).toEqual(parsed);
  });

  it('rejects unknown parameters', () => {
    const result = schema.safeParse({ ...exampleParams[slug], unexpected_param: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('leaves the input fields to the pipeline (they are not parameters)', () => {
    for (const field of ['image', 'images', 'audio', 'video', 'input_ref', 'input_refs'])
      expect(Object.keys(schema.shape)).not.toContain(field);
  });

  it.each(Object.keys(paramSchemas[slug].shape))('rejects a value of the wrong type for %s', (key) => {
    expect(schema.safeParse({ ...exampleParams[slug], [key]: { not: 'a scalar' } }).success).toBe(false);
  });

  it('accepts numbers and booleans sent as multipart strings', () => {
    const asJson = exampleParams[slug];
    const asMultipart = Object.fromEntries(
      Object.entries(asJson).map(([key, value]) => [
        key,
        typeof value === 'number' || typeof value === 'boolean' ? String(value) : value,
      ]),
    );
    expect(schema.parse(asMultipart)).toEqual(schema.parse(asJson));
  });

  it('converts to JSON Schema (input side) with defaults and no extra properties', () => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      additionalProperties?: boolean;
      properties?: Record<string, { description?: string; $ref?: string }>;
      $defs?: Record<string, { description?: string }>;
    };
    expect(json.additionalProperties).toBe(false);
    // a shared vocabulary (FuelType, AspectRatio, ...) is a named definition that carries the description
    const describedBy = (property: { description?: string; $ref?: string }) =>
      property.description ?? (property.$ref ? json.$defs?.[property.$ref.split('/').at(-1)!]?.description : undefined);
    for (const [key, property] of Object.entries(json.properties ?? {}))
      expect(describedBy(property), `${slug}.${key}`).toBeTruthy();
  });
});

describe('params coercion', () => {
  it.each([
    [
      'plate.read',
      { max_plates: '3', return_crops: 'true', min_confidence: '0.5', country: 'de' },
      { max_plates: 3, return_crops: true, min_confidence: 0.5, country: 'DE' },
    ],
    ['plate.read', { return_crops: 'false' }, { return_crops: false }],
    [
      'render.enhance',
      { upscale: '4', denoise_strength: '.3', auto_exposure: false },
      { upscale: 4, denoise_strength: 0.3, auto_exposure: false },
    ],
    ['tire.detect', { legal_minimum_mm: 3 }, { legal_minimum_mm: 3 }],
    [
      'pricing.vehicle',
      { vin: 'wvwzzzcdzmw123456', mileage_km: '48000', currency: 'EUR' },
      { vin: 'WVWZZZCDZMW123456', mileage_km: 48000, currency: 'eur' },
    ],
  ] as const)('%s coerces %j', (slug, input, expected) => {
    expect(paramSchemas[slug].parse(input)).toMatchObject(expected);
  });

  it.each([
    ['plate.read', { max_plates: '3abc' }],
    ['plate.read', { max_plates: '' }],
    ['plate.read', { max_plates: '2.5' }],
    ['plate.read', { max_plates: 0 }],
    ['plate.read', { return_crops: 'yes' }],
    ['plate.read', { return_crops: 1 }],
    ['plate.read', { country: 'DEU' }],
    ['render.enhance', { upscale: '3' }],
    ['render.enhance', { denoise_strength: '1e-1' }],
    ['render.background', { aspect_ratio: '1:1' }],
    ['render.background', { background: 'custom--' }],
    ['render.background', { category: 'roof' }],
    ['render.plate', { mode: 'logo' }],
    ['render.plate', { mode: 'logo', logo: 'ftp://example.com/logo.png' }],
    ['pricing.vehicle', {}],
    ['pricing.vehicle', { make: 'Volkswagen', model: 'Golf' }],
    ['pricing.vehicle', { vin: 'WVWZZZCDZMW12345O' }],
    ['pricing.vehicle', { vin: 'WVWZZZCDZMW123456', country: 'XX' }],
    ['pricing.repair', { parts: [] }],
    ['pricing.repair', { damages: [{ part: 'bonnet_ornament', type: 'scratch' }] }],
    ['pricing.repair', { damages: [{ part: 'hood', type: 'scratch', confidence: 0.9 }] }],
  ] as const)('%s rejects %j', (slug, input) => {
    expect(paramSchemas[slug].safeParse(input).success).toBe(false);
  });

  it('accepts each render.background background form', () => {
    for (const background of ['', 'default', 'custom--Showroom_7', 'loft-white']) {
      expect(paramSchemas['render.background'].parse({ background }).background).toBe(background);
    }
  });
});

describe('result schemas', () => {
  it.each(SLUGS)('%s converts to JSON Schema', (slug) => {
    expect(() => z.toJSONSchema(resultSchemas[slug], { io: 'output', unrepresentable: 'any' })).not.toThrow();
    expect(() => z.toJSONSchema(resultSchemas[slug], { io: 'input', unrepresentable: 'any' })).not.toThrow();
  });

  it('describe produced files as SignedFile, never as file_key placeholders', () => {
    const output = sandboxModels['vehicle.segment'](requestFor('vehicle.segment', 'public'));
    expect(resultSchemas['vehicle.segment'].safeParse(output.result).success).toBe(false);
    expect(resultSchemas['vehicle.segment'].safeParse(toPublic(output)).success).toBe(true);
  });
});
