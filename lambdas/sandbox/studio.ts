import type { RenderCategory } from '../schemas/results/vocabulary.js';
import { mix, type Rgb } from './png.js';
import { Rng } from './prng.js';

/** Backdrops for the render sandbox models: the default studio, presets, and the "source" photo look. */

export interface Backdrop {
  wall: Rgb;
  floor: Rgb;
}

const DEFAULT_STUDIO: Backdrop = { wall: [238, 238, 240], floor: [196, 196, 202] };
/** What an unprocessed forecourt photo looks like: sky over asphalt. */
export const SOURCE_PHOTO: Backdrop = { wall: [150, 185, 215], floor: [95, 95, 98] };

/** Any named background maps to a stable backdrop, the same for every job. */
export function backdropFor(background: string): Backdrop {
  if (background === '') return SOURCE_PHOTO;
  if (background === 'default') return DEFAULT_STUDIO;
  const rng = Rng.fromParts('backdrop', background);
  const tint: Rgb = [rng.int(60, 230), rng.int(60, 230), rng.int(60, 230)];
  return { wall: mix(tint, [255, 255, 255], 0.55), floor: mix(tint, [40, 40, 40], 0.35) };
}

/** Position folders, as dealer photo pipelines name them; `-` and `_` are interchangeable. */
const POSITION_FOLDERS: Readonly<Record<string, RenderCategory>> = Object.fromEntries([
  ...[
    'exterior',
    'outside',
    'front',
    'front_left',
    'left',
    'rear_left',
    'rear',
    'back',
    'rear_right',
    'right',
    'front_right',
    'side',
  ].map((name) => [name, 'exterior'] as const),
  ...['interior', 'inside', 'cabin', 'cockpit', 'dashboard', 'seats'].map((name) => [name, 'interior'] as const),
  ...['tire', 'tires', 'tyre', 'tyres', 'wheel', 'wheels', 'rim', 'rims'].map((name) => [name, 'tire'] as const),
  ...['trunk', 'boot', 'cargo'].map((name) => [name, 'trunk'] as const),
  ...['engine', 'engine_bay', 'motor'].map((name) => [name, 'engine'] as const),
]);

/**
 * The category a position folder of the image's path names, deepest folder first:
 * `stock-4711/interior/01.jpg` is an interior shot. The filename may also be the image's
 * original URL, whose path counts. The file's own name is not a folder and is ignored.
 */
export function categoryFromPath(filename: string | null): RenderCategory | null {
  if (!filename) return null;
  let path = filename;
  try {
    if (/^https?:\/\//i.test(filename)) path = decodeURIComponent(new URL(filename).pathname);
  } catch {
    // not a URL after all: use it as written
  }
  const folders = path.split(/[\\/]/).slice(0, -1).reverse();
  for (const folder of folders) {
    const category = POSITION_FOLDERS[folder.toLowerCase().replace(/-/g, '_')];
    if (category) return category;
  }
  return null;
}

/** Detection from the pixels (here: a weighted draw; exterior shots dominate a listing). */
export function categoryFromPixels(rng: Rng): RenderCategory {
  return rng.pick([
    'exterior',
    'exterior',
    'exterior',
    'exterior',
    'exterior',
    'exterior',
    'interior',
    'tire',
    'trunk',
    'engine',
  ]);
}

/** Interior shots and close-ups go to the interior renderer, the rest to the exterior one. */
export function rendererFor(category: RenderCategory): 'exterior' | 'interior' {
  return category === 'exterior' ? 'exterior' : 'interior';
}

/**
 * Whether an interior set holds an image for a category. `default` holds all of them; other
 * sets (presets and organisation-owned) are deterministically missing some, so that the
 * fallback colour shows up in test mode.
 */
export function interiorSetHas(set: string, category: RenderCategory): boolean {
  if (set === 'default') return true;
  return Rng.fromParts('interior-set', set, category).int(0, 3) > 0;
}
