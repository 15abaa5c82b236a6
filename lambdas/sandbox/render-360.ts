import { Render360Params } from '../schemas/params/render-360.js';
import { gifFile } from './gif.js';
import { type CarScene, carGifIndex, carGifPalette, carPhoto } from './pictures.js';
import { dimensionsFor, hexToRgb } from './png.js';
import { round } from './prng.js';
import { drawnCarLook } from './samples/readings.js';
import { backdropFor } from './studio.js';
import { defineSandboxModel } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

/** Time each frame shows in the GIF preview: ~2.9 s per turn for 36 frames. */
const PREVIEW_FRAME_CS = 8;

export const render360Model = defineSandboxModel('render.360', Render360Params, (context) => {
  const { params } = context;
  const [width, height] = dimensionsFor(params.aspect_ratio);
  // one car for the whole spin, so the seed covers every input image
  const rng = context.rng();
  const randomBody = hexToRgb(rng.pick(VEHICLE_COLORS).hex);
  // a spin of a sample car keeps the colour its photos draw
  const drawnCar = context.assets.map((asset) => drawnCarLook(context.sample(asset))).find((look) => look !== null);
  const body = drawnCar?.body ?? randomBody;
  const backdrop = backdropFor(params.background);
  const step = (params.direction === 'clockwise' ? 360 : -360) / context.assets.length;
  const scenes = context.assets.map((asset) => {
    const angle = round((((params.start_angle + step * asset.index) % 360) + 360) % 360, 1) % 360;
    const scene: CarScene = {
      width,
      height,
      box: { x: 0.12, y: 0.25, width: 0.76, height: 0.6 },
      body,
      endOn: Math.abs(Math.cos((angle * Math.PI) / 180)),
    };
    return { asset, angle, scene };
  });
  const frames = scenes.map(({ asset, angle, scene }) => ({
    index: asset.index,
    filename: asset.filename,
    angle_degrees: angle,
    image: context.file(`frame-${asset.index}.png`, carPhoto(scene, backdrop.wall, backdrop.floor)),
  }));
  const preview = gifFile(
    width,
    height,
    carGifPalette(body, backdrop.wall, backdrop.floor),
    scenes.map(({ scene }) => ({
      pixel: (x: number, y: number) => carGifIndex(scene, x, y),
      delayCs: PREVIEW_FRAME_CS,
    })),
  );
  return {
    result: {
      frame_count: frames.length,
      direction: params.direction,
      aspect_ratio: params.aspect_ratio,
      output_format: params.output_format,
      frames,
      preview: context.file('preview.gif', preview),
    },
    billableUnits: 1,
  };
});
