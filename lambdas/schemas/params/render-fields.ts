import * as z from 'zod';
import { AspectRatio, OutputFormat } from '../results/vocabulary.js';

/** Preset names are provisioned slugs; `custom--<ID>` selects an organisation-owned background. */
export const BACKGROUND_PATTERN = /^(?:|default|custom--[A-Za-z0-9_-]{1,64}|(?!custom--)[a-z0-9][a-z0-9_-]{0,63})$/;

export function backgroundParam() {
  return z
    .string()
    .regex(BACKGROUND_PATTERN)
    .default('default')
    .describe('Background: a provisioned preset name, `default` (the default studio), `custom--<ID>` (an organisation-owned background), or an empty string to skip replacement and return the source image');
}

export function aspectRatioParam() {
  return AspectRatio.default('4:3').describe('Output aspect ratio');
}

export function outputFormatParam() {
  return OutputFormat.default('jpg').describe('Image encoding of the rendered files. Test mode always returns PNG; `content_type` tells the truth');
}
