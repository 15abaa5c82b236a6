import { RenderVideoParams } from '../schemas/params/render-video.js';
import { gifFile } from './gif.js';
import { type CarScene, carGifIndex, carGifPalette, carPhoto } from './pictures.js';
import { dimensionsFor, hexToRgb } from './png.js';
import { round } from './prng.js';
import { drawnCarLook } from './samples/readings.js';
import { backdropFor } from './studio.js';
import { defineSandboxModel } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

const TRANSITIONS = ['cut', 'fade', 'slide', 'zoom'] as const;

/**
 * Live mode renders an MP4. Test mode returns an animated GIF with one frame per scene
 * and the real scene timing, labelled `image/gif`, because a hand-written MP4 muxer is
 * not worth having in a sandbox model.
 */
export const renderVideoModel = defineSandboxModel('render.video', RenderVideoParams, (context) => {
  const { params } = context;
  const [width, height] = dimensionsFor(params.aspect_ratio);
  const rng = context.rng();
  const randomBody = hexToRgb(rng.pick(VEHICLE_COLORS).hex);
  // a video of a sample car keeps the colour its photos draw, and each scene the angle its photo shows
  const looks = context.assets.map((asset) => drawnCarLook(context.sample(asset)));
  const body = looks.find((look) => look !== null)?.body ?? randomBody;
  const backdrop = backdropFor(rng.pick(['default', 'showroom', 'city-night', 'coast']));
  const sceneSeconds = round(params.duration_seconds / context.assets.length, 2);
  const scenes = context.assets.map((asset, i) => {
    const sceneRng = context.rng([asset]);
    const randomEndOn = sceneRng.float(0, 1, 2);
    const picture: CarScene = {
      width,
      height,
      box: { x: 0.1, y: 0.25, width: 0.8, height: 0.6 },
      body,
      endOn: looks[i]?.endOn ?? randomEndOn,
    };
    return {
      entry: {
        index: asset.index,
        filename: asset.filename,
        start_seconds: round(i * sceneSeconds, 2),
        duration_seconds: sceneSeconds,
        transition: i === 0 ? ('fade' as const) : sceneRng.pick(TRANSITIONS),
      },
      picture,
    };
  });
  const first = scenes[0];
  if (!first) throw new Error('render.video sandbox model called without input images');
  const video = gifFile(
    width,
    height,
    carGifPalette(body, backdrop.wall, backdrop.floor),
    scenes.map(({ picture }) => ({
      pixel: (x: number, y: number) => carGifIndex(picture, x, y),
      delayCs: Math.round(sceneSeconds * 100),
    })),
  );
  return {
    result: {
      video: context.file('video.gif', video),
      poster: context.file('poster.png', carPhoto(first.picture, backdrop.wall, backdrop.floor)),
      duration_seconds: round(sceneSeconds * scenes.length, 2),
      aspect_ratio: params.aspect_ratio,
      music: params.music,
      scenes: scenes.map((scene) => scene.entry),
    },
    billableUnits: 1,
  };
});
