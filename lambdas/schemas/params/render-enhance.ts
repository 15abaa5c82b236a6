import * as z from 'zod/mini';
import { booleanParam, integerChoiceParam, numberParam } from './fields.js';
import { outputFormatParam } from './render-fields.js';

export const RenderEnhanceParams = z.strictObject({
  upscale: integerChoiceParam('Resolution multiplier: 1, 2 or 4', [1, 2, 4], 1),
  denoise_strength: numberParam(
    'Denoising strength, 0 to 1; values above 0.2 can introduce artifacts',
    { min: 0, max: 1 },
    0.2,
  ),
  auto_exposure: booleanParam('Correct exposure and white balance', true),
  output_format: outputFormatParam(),
});
export type RenderEnhanceParams = z.output<typeof RenderEnhanceParams>;
