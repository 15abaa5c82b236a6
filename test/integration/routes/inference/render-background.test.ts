import { inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { interiorSetHas } from '../../../../lambdas/sandbox/studio.js';
import { BACKGROUND_PRESETS, INTERIOR_SETS } from '../../../../lambdas/schemas/params/render-fields.js';
import { RenderBackgroundResult } from '../../../../lambdas/schemas/results/render-background.js';
import { RENDER_CATEGORIES } from '../../../../lambdas/schemas/results/vocabulary.js';
import { type ApiResponse, call, expectEnvelope, imageFile } from '../../../support/http.js';
import { download, pngInfo } from '../../../support/images.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

let key: string;
let orgId: string;

const svc = sharedTestService();
beforeAll(async () => {
  key = svc.org.testKey;
  orgId = svc.org.organization.id;
});

type Params = Record<string, string | number | boolean | null>;
type Entry = ReturnType<typeof RenderBackgroundResult.parse>['images'][number];

/** Multipart text fields carry strings: numbers and booleans as written, null as the word `null`. */
function multipart(params: Params, filenames: string[] = ['car.jpg']): FormData {
  const form = new FormData();
  for (const [i, filename] of filenames.entries()) form.append('images', imageFile(`${filename}-${i}`), filename);
  for (const [name, value] of Object.entries(params)) form.append(name, value === null ? 'null' : String(value));
  return form;
}

const post = (path: string, options: Parameters<typeof call>[3] = {}): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', path, { key, ...options });

/** Renders through multipart with wait=true and returns the result entries. */
async function render(params: Params, filenames?: string[]): Promise<Entry[]> {
  const response = await post('/v1/render.background?wait=true', { form: multipart(params, filenames) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.status).toBe('succeeded');
  const parsed = RenderBackgroundResult.safeParse(response.body.result);
  expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
  return parsed.data!.images;
}

async function state() {
  const jobs = await svc.services.jobs.list({ orgId, livemode: false, limit: 100 });
  return {
    balance: await svc.services.accounts.getBalance(orgId, false),
    ledger: await ledgerSum(svc.services, orgId, false),
    jobs: jobs.items.length,
  };
}

const URL_OK = 'https://cdn.example.com/banners/top.png';

/**
 * Every rule of the parameter table: [what, parameters (JSON types), code, param]. Each is sent
 * both as JSON (with input_refs) and as multipart (string fields) and must be refused alike.
 */
const REFUSALS: ReadonlyArray<readonly [string, Params, string, string]> = [
  ['an unprovisioned preset', { background: 'moonbase' }, 'parameter_invalid', 'background'],
  ['a preset in the wrong case', { background: 'Showroom' }, 'parameter_invalid', 'background'],
  ['custom-- without an ID', { background: 'custom--' }, 'parameter_invalid', 'background'],
  ['custom-- with a bad ID', { background: 'custom--a/b' }, 'parameter_invalid', 'background'],
  ['an unknown category', { category: 'roof' }, 'parameter_invalid', 'category'],
  ['a category in the wrong case', { category: 'Exterior' }, 'parameter_invalid', 'category'],
  ['an unprovisioned interior set', { interior_set: 'moonbase' }, 'parameter_invalid', 'interior_set'],
  ['an empty interior set', { interior_set: '' }, 'parameter_invalid', 'interior_set'],
  ['an RGB fallback colour', { fallback_color: '#FFFFFF' }, 'parameter_invalid', 'fallback_color'],
  ['a fallback colour without #', { fallback_color: 'FFFFFFFF' }, 'parameter_invalid', 'fallback_color'],
  ['a fallback colour with non-hex digits', { fallback_color: '#GGGGGGGG' }, 'parameter_invalid', 'fallback_color'],
  ['an unknown aspect ratio', { aspect_ratio: '1:1' }, 'parameter_invalid', 'aspect_ratio'],
  ['a banner with a 4:3 ratio', { top_banner_url: URL_OK, aspect_ratio: '4:3' }, 'parameter_invalid', 'aspect_ratio'],
  [
    'an organisation banner with a 3:2 ratio',
    { bottom_banner: 'banner_7', aspect_ratio: '3:2' },
    'parameter_invalid',
    'aspect_ratio',
  ],
  ['an enhancement mode in the wrong case', { enhancement_mode: 'gan' }, 'parameter_invalid', 'enhancement_mode'],
  ['an unknown enhancement mode', { enhancement_mode: 'none' }, 'parameter_invalid', 'enhancement_mode'],
  ['denoising above 1', { denoise_strength: 1.5 }, 'parameter_invalid', 'denoise_strength'],
  ['denoising below 0', { denoise_strength: -0.1 }, 'parameter_invalid', 'denoise_strength'],
  ['denoising that is no number', { denoise_strength: 'strong' }, 'parameter_invalid', 'denoise_strength'],
  ['a reflection above 1', { floor_reflection: 1.01 }, 'parameter_invalid', 'floor_reflection'],
  ['a glass opacity above 255', { glass_opacity: 256 }, 'parameter_invalid', 'glass_opacity'],
  ['a negative glass opacity', { glass_opacity: -1 }, 'parameter_invalid', 'glass_opacity'],
  ['a fractional glass opacity', { glass_opacity: 12.5 }, 'parameter_invalid', 'glass_opacity'],
  [
    'logo and plate asset together',
    { logo: 'https://cdn.example.com/logo.png', plate_asset: 'plate_1' },
    'parameters_exclusive',
    'plate_asset',
  ],
  ['a plate asset ID with a slash', { plate_asset: 'plates/1' }, 'parameter_invalid', 'plate_asset'],
  ['a three-digit colour', { color: '#fff' }, 'parameter_invalid', 'color'],
  ['a colour name', { color: 'red' }, 'parameter_invalid', 'color'],
  ['an RGBA colour', { color: '#ff000080' }, 'parameter_invalid', 'color'],
  ['both top banners', { top_banner_url: URL_OK, top_banner: 'banner_1' }, 'parameters_exclusive', 'top_banner'],
  [
    'both bottom banners',
    { bottom_banner_url: URL_OK, bottom_banner: 'banner_2' },
    'parameters_exclusive',
    'bottom_banner',
  ],
  ['a banner with background ""', { background: '', top_banner_url: URL_OK }, 'parameters_exclusive', 'top_banner_url'],
  ['an http logo on a private address', { logo: 'http://10.0.0.8/logo.png' }, 'url_not_public', 'logo'],
  [
    'a logo on the metadata service',
    { logo: 'https://169.254.169.254/latest/meta-data/iam' },
    'url_not_public',
    'logo',
  ],
  [
    'a banner on a private address in decimal',
    { top_banner_url: 'https://167772161/banner.png' },
    'url_not_public',
    'top_banner_url',
  ],
  [
    'a banner on localhost',
    { bottom_banner_url: 'https://localhost:8080/banner.png' },
    'url_not_public',
    'bottom_banner_url',
  ],
  [
    'a banner with credentials',
    { top_banner_url: 'https://user:pw@cdn.example.com/b.png' },
    'url_not_public',
    'top_banner_url',
  ],
  [
    'a banner on IPv6 loopback',
    { bottom_banner_url: 'https://[::ffff:127.0.0.1]/b.png' },
    'url_not_public',
    'bottom_banner_url',
  ],
  [
    'a banner on an internal name',
    { top_banner_url: 'https://assets.corp.internal/b.png' },
    'url_not_public',
    'top_banner_url',
  ],
  [
    'skip removal that is no boolean',
    { skip_background_removal: 'yes' },
    'parameter_invalid',
    'skip_background_removal',
  ],
  ['position from pixels as 1', { position_from_pixels: 1 }, 'parameter_invalid', 'position_from_pixels'],
  ['a camera roll beyond 180°', { camera_roll: 181 }, 'parameter_invalid', 'camera_roll'],
  ['a camera roll that is no number', { camera_roll: 'auto' }, 'parameter_invalid', 'camera_roll'],
  ['an over-long reserved value', { reserved: 'r'.repeat(257) }, 'parameter_invalid', 'reserved'],
  ['an over-long traceability value', { traceability: 't'.repeat(257) }, 'parameter_invalid', 'traceability'],
  ['an unknown output format', { output_format: 'gif' }, 'parameter_invalid', 'output_format'],
  ['an output format in the wrong case', { output_format: 'PNG' }, 'parameter_invalid', 'output_format'],
  ['return_cutout that is no boolean', { return_cutout: 'sometimes' }, 'parameter_invalid', 'return_cutout'],
  ['an unknown parameter', { backdrop_blur: 3 }, 'parameter_unknown', 'backdrop_blur'],
];

describe('render.background parameter rules', () => {
  it.each(REFUSALS)('refuses %s, alike in JSON and multipart, charging nothing', async (_what, params, code, param) => {
    const before = await state();
    expectEnvelope(
      await post('/v1/render.background', { json: { input_refs: ['upl_11111111111111'], ...params } }),
      400,
      'invalid_request',
      code,
      param,
    );
    expectEnvelope(
      await post('/v1/render.background', { form: multipart(params) }),
      400,
      'invalid_request',
      code,
      param,
    );
    expect(await state()).toEqual(before);
  });

  it('accepts every background form and every provisioned preset', async () => {
    for (const background of ['', 'default', 'custom--Showroom_7', ...BACKGROUND_PRESETS]) {
      const [entry] = await render({ background });
      expect(entry!.background).toBe(background);
      expect(entry!.status).toBe(background === '' ? 'passthrough' : 'rendered');
    }
  });

  it('accepts the boundaries of every numeric parameter, in string form too', async () => {
    for (const params of [
      { denoise_strength: 0, floor_reflection: 0, glass_opacity: 0, camera_roll: -180 },
      { denoise_strength: 1, floor_reflection: 1, glass_opacity: 255, camera_roll: 180 },
      { denoise_strength: '0.15', floor_reflection: '.5', glass_opacity: '128', camera_roll: '-2.5' },
    ] as Params[]) {
      expect((await post('/v1/render.background', { form: multipart(params) })).status).toBe(202);
      expect(
        (
          await post('/v1/render.background', {
            json: {
              input_refs: [
                await uploadFile(svc.baseUrl, key, 'image/jpeg', Buffer.alloc(900, JSON.stringify(params)), 'car.jpg'),
              ],
              ...params,
            },
          })
        ).status,
      ).toBe(202);
    }
  });

  it('camera_roll null: JSON null, and the empty string or the word null in multipart', async () => {
    for (const value of ['', 'null']) {
      const [entry] = await render({ camera_roll: value });
      expect(entry!.camera_roll).toEqual(expect.any(Number));
      expect(Math.abs(entry!.camera_roll!)).toBeLessThanOrEqual(4);
    }
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', Buffer.alloc(900, 'roll'), 'roll.jpg');
    const job = await post('/v1/render.background?wait=true', { json: { input_refs: [ref], camera_roll: null } });
    expect(job.body.result.images[0].camera_roll).toEqual(expect.any(Number));
    const [given] = await render({ camera_roll: -2.5 });
    expect(given!.camera_roll).toBe(-2.5);
  });
});

describe('render.background behaviour (test mode)', () => {
  it('renders 4:3 by default and the ratio asked for', async () => {
    for (const [ratio, size] of [
      [undefined, [64, 48]],
      ['16:9', [64, 36]],
      ['3:2', [60, 40]],
    ] as const) {
      const [entry] = await render(ratio ? { aspect_ratio: ratio } : {});
      expect(entry!.aspect_ratio).toBe(ratio ?? '4:3');
      expect([entry!.image.width, entry!.image.height]).toEqual(size);
    }
  });

  it('any banner forces 16:9 and is assembled around the image', async () => {
    for (const params of [
      { top_banner_url: URL_OK },
      { bottom_banner: 'banner_7' },
      { top_banner: 'a', bottom_banner_url: URL_OK, aspect_ratio: '16:9' },
    ] as Params[]) {
      const [entry] = await render(params);
      expect(entry!.aspect_ratio).toBe('16:9');
      expect([entry!.image.width, entry!.image.height]).toEqual([64, 36]);
      expect(entry!.banners).toEqual({
        top: 'top_banner_url' in params || 'top_banner' in params,
        bottom: 'bottom_banner_url' in params || 'bottom_banner' in params,
      });
    }
  });

  it('reports the output format asked for and the PNG it delivers', async () => {
    for (const format of ['jpg', 'png', 'webp']) {
      const [entry] = await render({ output_format: format });
      expect(entry!.output_format).toBe(format);
      expect(entry!.image.content_type).toBe('image/png');
      const file = await download(entry!.image.url);
      expect(file.contentType).toBe('image/png');
      expect(pngInfo(file.bytes)).toMatchObject({ width: 64, height: 48 });
    }
  });

  it('returns the cutout only when asked, and never for passthrough or kept backgrounds', async () => {
    const [without] = await render({});
    expect(without!.cutout).toBeNull();
    const [withCutout] = await render({ return_cutout: true });
    expect(withCutout!.cutout).toMatchObject({ content_type: 'image/png', width: 64, height: 48 });
    expect(pngInfo((await download(withCutout!.cutout!.url)).bytes)?.colorType).toBe(6);
    expect((await render({ return_cutout: true, background: '' }))[0]!.cutout).toBeNull();
    expect((await render({ return_cutout: true, skip_background_removal: true }))[0]!.cutout).toBeNull();
  });

  it('background "" returns the source file itself, byte for byte', async () => {
    const source = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4000, 'original photo')]);
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', source, 'lot/front/original.jpg');
    const job = await post('/v1/render.background?wait=true', {
      json: { input_refs: [ref], background: '', output_format: 'webp' },
    });
    const [entry] = job.body.result.images as Entry[];
    expect(entry).toMatchObject({
      status: 'passthrough',
      background: '',
      aspect_ratio: null,
      enhancement_mode: null,
      camera_roll: null,
      cutout: null,
      interior_set: null,
    });
    expect(entry!.image).toMatchObject({
      content_type: 'image/jpeg',
      size_bytes: source.length,
      width: null,
      height: null,
    });
    const file = await download(entry!.image.url);
    expect(file.bytes.equals(source)).toBe(true);
    expect(file.contentType).toBe('image/jpeg');
    // the same through multipart
    const form = new FormData();
    form.append('images', new Blob([source], { type: 'image/jpeg' }), 'x.jpg');
    form.append('background', '');
    const viaForm = await post('/v1/render.background?wait=true', { form });
    expect((await download(viaForm.body.result.images[0].image.url)).bytes.equals(source)).toBe(true);
    // sent as application/octet-stream (curl's label for an unknown file): the passthrough names the real type
    const unlabelled = new FormData();
    unlabelled.append('images', new Blob([source], { type: 'application/octet-stream' }), 'x.jpg');
    unlabelled.append('background', '');
    const [passthrough] = (await post('/v1/render.background?wait=true', { form: unlabelled })).body.result
      .images as Entry[];
    expect(passthrough!.image.content_type).toBe('image/jpeg');
    expect((await download(passthrough!.image.url)).contentType).toBe('image/jpeg');
  });

  it('skip_background_removal keeps the original background and still assembles banners', async () => {
    const [entry] = await render({ skip_background_removal: true, top_banner_url: URL_OK, background: 'showroom' });
    expect(entry).toMatchObject({
      status: 'background_kept',
      aspect_ratio: '16:9',
      banners: { top: true, bottom: false },
      interior_set: null,
      fallback_color_used: false,
    });
  });

  it('echoes traceability unchanged on every entry, and null when absent', async () => {
    const value = 'stock/4711 · ü · "quoted"';
    const entries = await render({ traceability: value }, ['a.jpg', 'b.jpg', 'c.jpg']);
    expect(entries.map((entry) => entry.traceability)).toEqual([value, value, value]);
    expect((await render({}))[0]!.traceability).toBeNull();
    expect((await render({ reserved: 'anything at all' }))[0]!.status).toBe('rendered');
  });

  it('auto routes by the position folder of the filename path: exterior folders to the exterior renderer, the rest to the interior renderer', async () => {
    const filenames = [
      'stock-9/exterior/01.jpg',
      'stock-9/Front_Left/02.jpg',
      'stock-9/interior/03.jpg',
      'stock-9/tyres/04.jpg',
      'stock-9/boot/05.jpg',
      'stock-9/engine-bay/06.jpg',
      'https://cdn.dealer.example/stock-9/dashboard/07.jpg',
      'interior.jpg',
    ];
    const entries = await render({}, filenames);
    expect(entries.map((entry) => [entry.filename, entry.category, entry.renderer, entry.position_source])).toEqual([
      [filenames[0], 'exterior', 'exterior', 'path'],
      [filenames[1], 'exterior', 'exterior', 'path'],
      [filenames[2], 'interior', 'interior', 'path'],
      [filenames[3], 'tire', 'interior', 'path'],
      [filenames[4], 'trunk', 'interior', 'path'],
      [filenames[5], 'engine', 'interior', 'path'],
      [filenames[6], 'interior', 'interior', 'path'],
      // a file name is not a folder: the pixels decide
      [filenames[7], expect.any(String), entries[7]!.category === 'exterior' ? 'exterior' : 'interior', 'pixels'],
    ]);
  });

  it('position_from_pixels ignores the path; a category override wins over both', async () => {
    const filenames = ['stock-9/interior/01.jpg', 'stock-9/exterior/02.jpg'];
    const fromPixels = await render({ position_from_pixels: true }, filenames);
    expect(fromPixels.map((entry) => entry.position_source)).toEqual(['pixels', 'pixels']);
    for (const category of RENDER_CATEGORIES) {
      const forced = await render({ category }, filenames);
      expect(forced.map((entry) => [entry.category, entry.renderer, entry.position_source])).toEqual(
        filenames.map(() => [category, category === 'exterior' ? 'exterior' : 'interior', 'parameter']),
      );
    }
  });

  it('non-exterior shots use the interior set, and the RGBA fallback colour where the set lacks the category', async () => {
    const missing = INTERIOR_SETS.flatMap((set) =>
      (['interior', 'tire', 'trunk', 'engine'] as const).map((category) => [set, category] as const),
    ).find(([set, category]) => !interiorSetHas(set, category));
    expect(missing, 'some provisioned set lacks some category').toBeDefined();
    const [set, category] = missing!;
    const [fallback] = await render({ category, interior_set: set, fallback_color: '#FF000080' });
    expect(fallback).toMatchObject({ renderer: 'interior', interior_set: set, fallback_color_used: true });
    // the top-left pixel is the wall: half-transparent red over white
    const png = (await download(fallback!.image.url)).bytes;
    const idat = png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
    const firstPixel = inflateSync(idat).subarray(1, 4);
    expect([...firstPixel].map((v) => Math.round(v / 8))).toEqual([255, 128, 128].map((v) => Math.round(v / 8)));
    const [complete] = await render({ category, interior_set: 'default' });
    expect(complete).toMatchObject({ interior_set: 'default', fallback_color_used: false });
    const [exterior] = await render({ category: 'exterior', interior_set: set });
    expect(exterior).toMatchObject({ interior_set: null, fallback_color_used: false });
  });

  it('logo or plate asset is reported on exterior shots where a plate is detected, never on interior ones', async () => {
    const exteriors = await render({ category: 'exterior', logo: 'https://cdn.example.com/logo.png' }, [
      '1.jpg',
      '2.jpg',
      '3.jpg',
      '4.jpg',
      '5.jpg',
      '6.jpg',
    ]);
    expect(exteriors.every((entry) => entry.plate_overlay === 'logo' || entry.plate_overlay === null)).toBe(true);
    expect(exteriors.some((entry) => entry.plate_overlay === 'logo')).toBe(true);
    const assets = await render({ category: 'exterior', plate_asset: 'custom--plate_9' }, ['1.jpg', '2.jpg', '3.jpg']);
    expect(assets.some((entry) => entry.plate_overlay === 'plate_asset')).toBe(true);
    const interiors = await render({ category: 'interior', logo: 'https://cdn.example.com/logo.png' }, [
      '1.jpg',
      '2.jpg',
    ]);
    expect(interiors.map((entry) => entry.plate_overlay)).toEqual([null, null]);
    expect((await render({ category: 'exterior' }))[0]!.plate_overlay).toBeNull();
  });

  it('reports the enhancement mode applied', async () => {
    for (const mode of ['fine_grain', 'GAN', 'None'])
      expect((await render({ enhancement_mode: mode }))[0]!.enhancement_mode).toBe(mode);
    expect((await render({}))[0]!.enhancement_mode).toBe('fine_grain');
  });

  it('bills one image per input and returns one result per input, in order, for 1 to 30 multipart files', async () => {
    for (const count of [1, 30]) {
      const filenames = Array.from({ length: count }, (_, i) => `img-${String(i).padStart(2, '0')}.jpg`);
      const response = await post('/v1/render.background?wait=true', { form: multipart({}, filenames) });
      expect(response.status).toBe(200);
      expect(response.body.result.images.map((entry: Entry) => entry.filename)).toEqual(filenames);
      expect(response.body.credits).toEqual({ reserved: 10 * count, charged: 10 * count });
    }
  });
});
