import { effectiveAspectRatio, RenderBackgroundParams } from '../schemas/params/render-background.js';
import type { RenderCategory } from '../schemas/results/vocabulary.js';
import { type CarScene, carCutout, carPhotoPixel } from './pictures.js';
import { dimensionsFor, hexToRgb, mix, pngFile, type Rgb } from './png.js';
import { Rng } from './prng.js';
import { drawnCarLook } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import {
  type Backdrop,
  backdropFor,
  categoryFromPath,
  categoryFromPixels,
  interiorSetHas,
  rendererFor,
  SOURCE_PHOTO,
} from './studio.js';
import { defineSandboxModel, randomBox } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

/** Interior, tire, trunk and engine shots are close-ups: the subject fills the frame. */
const CLOSE_UP_BOX = { x: 0.1, y: 0.1, width: 0.8, height: 0.8 };
/** Share of the image height a banner takes. */
const BANNER_SHARE = 0.14;

type Params = RenderBackgroundParams;

/** A banner's colour, stable per URL or asset ID, so a test can see which one was used. */
function bannerColor(source: string): Rgb {
  const rng = Rng.fromParts('banner', source);
  return [rng.int(20, 235), rng.int(20, 235), rng.int(20, 235)];
}

/** `#RRGGBBAA` painted over the default studio white, as a renderer would composite it. */
function fallbackBackdrop(rgba: string): Backdrop {
  const color = hexToRgb(rgba.slice(0, 7));
  const alpha = Number.parseInt(rgba.slice(7, 9), 16) / 255;
  const wall = mix([255, 255, 255], color, alpha);
  return { wall, floor: mix(wall, [40, 40, 40], 0.25) };
}

function exteriorBackdrop(params: Params): Backdrop {
  const backdrop = backdropFor(params.background);
  if (params.color === '') return backdrop;
  const tint = hexToRgb(params.color);
  return { wall: mix(backdrop.wall, tint, 0.6), floor: mix(backdrop.floor, tint, 0.3) };
}

/**
 * What the pixels of a sample show: a car photo is an exterior shot, the tyre photo a tyre; the
 * door-jamb label and the registration certificate are close-ups without a car body, so interior.
 */
function sampleCategory(sample: Sample): RenderCategory {
  return sample.kind === 'car_photo' ? 'exterior' : sample.kind === 'tire_photo' ? 'tire' : 'interior';
}

function categoryOf(
  params: Params,
  filename: string | null,
  sample: Sample | null,
  rng: Rng,
): { category: RenderCategory; source: 'parameter' | 'path' | 'pixels' } {
  if (params.category !== 'auto') return { category: params.category, source: 'parameter' };
  const fromPath = params.position_from_pixels ? null : categoryFromPath(filename);
  if (fromPath) return { category: fromPath, source: 'path' };
  return { category: sample ? sampleCategory(sample) : categoryFromPixels(rng), source: 'pixels' };
}

export const renderBackgroundModel = defineSandboxModel('render.background', RenderBackgroundParams, (context) => {
  const { params } = context;
  const aspectRatio = effectiveAspectRatio(params);
  const [width, height] = dimensionsFor(aspectRatio);
  const passthrough = params.background === '';
  const keepBackground = !passthrough && params.skip_background_removal;
  const top = params.top_banner_url ?? params.top_banner;
  const bottom = params.bottom_banner_url ?? params.bottom_banner;
  const plateSource =
    params.logo !== undefined ? ('logo' as const) : params.plate_asset !== undefined ? ('plate_asset' as const) : null;

  const images = context.assets.map((asset) => {
    // per-asset randomness: an image renders the same whatever its neighbours are
    const rng = context.rng([asset]);
    const sample = context.sample(asset);
    // a sample car is redrawn as its photo shows it: its colour, its angle, level, its plate where drawn
    const drawnCar = drawnCarLook(sample);
    const { category, source } = categoryOf(params, asset.filename, sample, rng);
    const renderer = rendererFor(category);
    const identity = { index: asset.index, filename: asset.filename };
    const routing = { category, position_source: source, renderer };
    const traceability = params.traceability ?? null;
    if (passthrough) {
      // the source, untouched: no ratio, enhancement, roll correction, overlay or banners
      return {
        ...identity,
        status: 'passthrough' as const,
        ...routing,
        background: '',
        interior_set: null,
        fallback_color_used: false,
        aspect_ratio: null,
        output_format: params.output_format,
        enhancement_mode: null,
        camera_roll: null,
        plate_overlay: null,
        banners: { top: false, bottom: false },
        image: context.sourceFile(`image-${asset.index}`, asset),
        cutout: null,
        traceability,
      };
    }

    const exterior = renderer === 'exterior';
    const hasSetImage = !exterior && interiorSetHas(params.interior_set, category);
    const backdrop = keepBackground
      ? SOURCE_PHOTO
      : exterior
        ? exteriorBackdrop(params)
        : hasSetImage
          ? backdropFor(`${params.interior_set}/${category}`)
          : fallbackBackdrop(params.fallback_color);
    const bannerRows = Math.max(2, Math.round(height * BANNER_SHARE));
    const frameTop = top ? bannerRows : 0;
    const frameHeight = height - frameTop - (bottom ? bannerRows : 0);
    const scene: CarScene = {
      width,
      height: frameHeight,
      box: exterior ? (drawnCar?.box ?? randomBox(rng, 0.7, 0.85)) : CLOSE_UP_BOX,
      body: drawnCar?.body ?? hexToRgb(rng.pick(VEHICLE_COLORS).hex),
      endOn: drawnCar?.endOn ?? rng.float(0, 1, 2),
    };
    const detectedRoll = sample ? 0 : rng.float(-4, 4, 1);
    const plateDetected =
      exterior && (sample ? sample.kind === 'car_photo' && sample.view.plate !== null : rng.chance(0.85));
    const boxBottom = (scene.box.y + scene.box.height) * frameHeight;

    const image = pngFile(width, height, 'rgb', (x, y) => {
      if (top && y < frameTop) return bannerColor(top);
      if (bottom && y >= frameTop + frameHeight) return bannerColor(bottom);
      const frameY = y - frameTop;
      const pixel = carPhotoPixel(scene, backdrop.wall, backdrop.floor, x, frameY);
      // floor reflection: the car's colour mirrored faintly onto the floor just below it
      const inColumn = x >= scene.box.x * width && x <= (scene.box.x + scene.box.width) * width;
      if (params.floor_reflection > 0 && inColumn && frameY >= boxBottom && frameY < boxBottom + frameHeight * 0.12) {
        return mix(pixel, scene.body, params.floor_reflection * 0.45);
      }
      return pixel;
    });

    return {
      ...identity,
      status: keepBackground ? ('background_kept' as const) : ('rendered' as const),
      ...routing,
      background: params.background,
      interior_set: exterior || keepBackground ? null : params.interior_set,
      fallback_color_used: !exterior && !keepBackground && !hasSetImage,
      aspect_ratio: aspectRatio,
      output_format: params.output_format,
      enhancement_mode: params.enhancement_mode,
      camera_roll: params.camera_roll ?? detectedRoll,
      plate_overlay: plateDetected ? plateSource : null,
      banners: { top: top !== undefined, bottom: bottom !== undefined },
      image: context.file(`image-${asset.index}.png`, image),
      // nothing was cut out when the background stays
      cutout:
        params.return_cutout && !keepBackground
          ? context.file(`cutout-${asset.index}.png`, carCutout({ ...scene, height }))
          : null,
      traceability,
    };
  });
  return { result: { images }, billableUnits: context.assets.length };
});
