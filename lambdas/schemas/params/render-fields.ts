import * as z from 'zod/mini';
import { checkPublicUrl, PUBLIC_URL_MAX_LENGTH } from '../../domain/kernel/public-urls.js';
import { AspectRatio, OutputFormat } from '../results/vocabulary.js';
import { describe } from '../zod.js';

/**
 * Background presets provisioned for every organisation. Organisation-owned backgrounds are
 * addressed as `custom--<ID>` instead; the inference plane checks the ID belongs to the caller.
 */
export const BACKGROUND_PRESETS = [
  'showroom',
  'loft-white',
  'studio-grey',
  'studio-black',
  'city-night',
  'coast',
  'forecourt',
  'warehouse',
  'gradient-blue',
] as const;

/** Interior background sets provisioned for every organisation (`custom--<ID>` for owned ones). */
export const INTERIOR_SETS = ['default', 'showroom', 'loft-white', 'studio-grey'] as const;

/** `custom--<ID>`: an organisation-owned asset (ID of letters, digits, `-`, `_`, at most 64). */
export const CUSTOM_ASSET_PATTERN = /^custom--[A-Za-z0-9_-]{1,64}$/;

const PRESET_LIST = BACKGROUND_PRESETS.map((name) => `\`${name}\``).join(', ');

/** One of `names` or `custom--<ID>`, as one anchored pattern: what the service accepts is what the document says. */
function namedOrCustom(names: readonly string[]): RegExp {
  return new RegExp(`^(?:${names.join('|')}|${CUSTOM_ASSET_PATTERN.source.slice(1, -1)})$`);
}

export function backgroundParam() {
  return describe(
    z._default(
      z.string().check(
        z.regex(namedOrCustom(['', 'default', ...BACKGROUND_PRESETS]), {
          message: `background must be "", "default", a preset (${BACKGROUND_PRESETS.join(', ')}) or custom--<ID>`,
        }),
      ),
      'default',
    ),
    `Background: a provisioned preset (${PRESET_LIST}), \`default\` (the default studio), \`custom--<ID>\` (an organisation-owned background), or an empty string to skip replacement and return the source image`,
  );
}

export function interiorSetParam() {
  return describe(
    z._default(
      z.string().check(
        z.regex(namedOrCustom(INTERIOR_SETS), {
          message: `interior_set must be one of ${INTERIOR_SETS.join(', ')} or custom--<ID>`,
        }),
      ),
      'default',
    ),
    `Background set for interior, tire, trunk and engine shots: ${INTERIOR_SETS.map((name) => `\`${name}\``).join(', ')} or \`custom--<ID>\` (organisation-owned)`,
  );
}

/** An organisation-owned asset (plate, banner) by ID; `custom--<ID>` is accepted as a synonym. */
export function organisationAssetParam(description: string) {
  return describe(
    z.optional(
      z.string().check(
        z.regex(/^(?:custom--)?[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
          message: 'must be an asset ID of letters, digits, - and _ (at most 64)',
        }),
      ),
    ),
    description,
  );
}

/**
 * A client-supplied URL the pipeline will fetch: http or https (docs/internals/uploads.md, "Client-supplied URLs"), no credentials, no private, loopback,
 * link-local or internal host (see `lambdas/domain/kernel/public-urls.ts`). A failure answers
 * `400 url_not_public` naming the parameter.
 */
export function publicUrlParam(name: string, description: string) {
  return describe(
    z.optional(
      z.string().check(
        z.superRefine((value, context) => {
          const check = checkPublicUrl(value);
          if (!check.ok)
            context.addIssue({
              code: 'custom',
              message: `${name} ${check.reason}.`,
              params: { error_code: 'url_not_public' },
            });
        }),
        // already refused above as url_not_public (the first issue is the one answered); stated for the document
        z.maxLength(PUBLIC_URL_MAX_LENGTH),
      ),
    ),
    `${description}. Public \`http\` or \`https\` URL, at most ${PUBLIC_URL_MAX_LENGTH} characters, without credentials; hosts in private, loopback, link-local, CGNAT, multicast or unique-local ranges and local names (\`localhost\`, \`*.internal\`, …) are refused`,
  );
}

/** A colour `#rrggbb`, or the empty string for "none". */
export function optionalHexColorParam(description: string) {
  return describe(
    z._default(
      z.string().check(z.regex(/^(?:|#[0-9A-Fa-f]{6})$/, { message: 'must be empty or # followed by six hex digits' })),
      '',
    ),
    description,
  );
}

export function aspectRatioParam() {
  return describe(z._default(AspectRatio, '4:3'), 'Output aspect ratio');
}

export function outputFormatParam() {
  return describe(
    z._default(OutputFormat, 'jpg'),
    'Image encoding of the rendered files. Test mode always returns PNG; `content_type` tells the truth',
  );
}
