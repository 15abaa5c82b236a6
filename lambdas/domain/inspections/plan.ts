import { INSPECTION_STAGES, type InspectionStageName } from '../catalogue/inspection-stages.js';
import type { InputAsset, StageRecord } from '../jobs/job.js';
import { ApiError } from '../kernel/errors.js';

export const MAX_INSPECTION_PHOTOS = 30;

const isVideo = (asset: InputAsset) => asset.content_type.toLowerCase().startsWith('video/');
const isPhoto = (asset: InputAsset) => asset.content_type.toLowerCase().startsWith('image/');

/**
 * An inspection takes one walk-around video (unless `onboard_walkaround` is excluded, when a
 * video would go unused and is refused) plus 1 to 30 photos.
 */
export function checkInspectionInputs(inputs: readonly InputAsset[], exclude: readonly InspectionStageName[]): void {
  const videos = inputs.filter(isVideo).length;
  const photos = inputs.filter(isPhoto).length;
  if (exclude.includes('onboard_walkaround')) {
    if (videos > 0)
      throw new ApiError(
        'parameter_invalid',
        'input_refs',
        'onboard_walkaround is excluded, so the walk-around video would go unused: drop it from input_refs.',
      );
  } else if (videos !== 1) {
    throw new ApiError(
      videos === 0 ? 'missing_input' : 'parameter_invalid',
      'input_refs',
      `An inspection takes exactly one walk-around video (video/*) in input_refs, unless stages.exclude names onboard_walkaround; got ${videos}.`,
    );
  }
  if (photos < 1)
    throw new ApiError(
      'missing_input',
      'input_refs',
      'An inspection takes 1 to 30 photos (image/*) in input_refs besides the video.',
    );
  if (photos > MAX_INSPECTION_PHOTOS)
    throw new ApiError(
      'too_many_files',
      'input_refs',
      `An inspection takes at most ${MAX_INSPECTION_PHOTOS} photos; got ${photos}.`,
    );
}

/** The stages an inspection starts with: excluded ones are `canceled` and `skipped` from the start. */
export function initialStages(exclude: readonly InspectionStageName[]): StageRecord[] {
  return INSPECTION_STAGES.map((definition) => {
    const skipped = exclude.includes(definition.name);
    return {
      stage: definition.stage,
      name: definition.name,
      endpoint: definition.endpoint,
      status: skipped ? 'canceled' : 'queued',
      started_at: null,
      completed_at: null,
      job_id: null,
      error: null,
      result: null,
      skipped,
      recorded: false,
    };
  });
}

/** The walk-around video goes to the onboarding stage; the photos to the image stages; pricing takes no file. */
export function stageInputs(inputs: readonly InputAsset[], name: InspectionStageName): InputAsset[] {
  const chosen =
    name === 'onboard_walkaround' ? inputs.filter(isVideo) : name === 'price_repair' ? [] : inputs.filter(isPhoto);
  return chosen.map((asset, index) => ({ ...asset, index }));
}
