import type * as z from 'zod/mini';
import type { BoundingBox } from '../schemas/results/common.js';
import type { FileRef } from '../schemas/results/file-refs.js';
import type { StoredResult } from '../schemas/results/index.js';
import { canonicalJson, Rng } from './prng.js';
import { recognisedSample } from './samples/fingerprints.js';
import type { Sample } from './samples/scenes.js';
import type { InferenceSlug, SandboxAsset, SandboxFile, SandboxModel, SandboxRequest } from './types.js';

/** Confidence bands: a healthy answer, and the `low_confidence` scenario (always below 0.5). */
const NORMAL_CONFIDENCE: readonly [number, number] = [0.82, 0.99];
const LOW_CONFIDENCE: readonly [number, number] = [0.12, 0.48];

/** Everything a sandbox model body needs; one per call. */
export class SandboxContext<Params> {
  readonly empty: boolean;
  readonly low: boolean;
  private readonly files: Record<string, SandboxFile> = {};

  constructor(
    readonly request: SandboxRequest,
    readonly params: Params,
  ) {
    this.empty = request.scenario === 'empty_result';
    this.low = request.scenario === 'low_confidence';
  }

  get assets(): SandboxAsset[] {
    return this.request.assets;
  }

  /** The single input of a one-asset endpoint. */
  get asset(): SandboxAsset {
    const asset = this.request.assets[0];
    if (!asset) throw new Error(`${this.request.slug} sandbox model called without an input asset`);
    return asset;
  }

  /**
   * Randomness keyed by the endpoint, the (parsed) parameters and the given assets'
   * SHA-256. The scenario is not part of the key: `low_confidence` changes the
   * confidences of the very answer `null` would give, nothing else.
   */
  rng(assets: readonly SandboxAsset[] = this.request.assets, label = ''): Rng {
    return Rng.fromParts(this.request.slug, canonicalJson(this.params), label, ...assets.map((asset) => asset.sha256));
  }

  /**
   * The repository sample `asset` is (recognised by its bytes), whose answers are the truth of its
   * scene; null for any other input (docs/test-fixtures.md).
   */
  sample(asset: SandboxAsset = this.asset): Sample | null {
    return recognisedSample(asset);
  }

  /** A confidence in the band of the scenario; always consumes exactly one draw. */
  confidence(rng: Rng, band: readonly [number, number] = NORMAL_CONFIDENCE): number {
    const [min, max] = this.low ? LOW_CONFIDENCE : band;
    return rng.float(min, max, 3);
  }

  /**
   * Whether a detection survives `min_confidence`. In `low_confidence` everything is
   * kept, so the scenario shows the same detections with low scores instead of an
   * empty answer.
   */
  passes(confidence: number, minConfidence: number): boolean {
    return this.low || confidence >= minConfidence;
  }

  /** Registers a produced file and returns the placeholder the result carries. */
  file(key: string, file: SandboxFile): FileRef {
    this.files[key] = file;
    return { file_key: key };
  }

  /** Returns an input asset unchanged as a produced file; the pipeline copies the stored bytes. */
  sourceFile(key: string, asset: SandboxAsset): FileRef {
    this.files[key] = { contentType: asset.contentType, bytes: new Uint8Array(0), sourceIndex: asset.index };
    return { file_key: key };
  }

  producedFiles(): Record<string, SandboxFile> {
    return this.files;
  }
}

export interface SandboxBody<Slug extends InferenceSlug> {
  result: StoredResult<Slug>;
  billableUnits: number;
}

/**
 * Wraps a typed sandbox model body: parses the parameters (idempotent on already parsed
 * ones, and fills defaults when the caller passed none), and checks at compile time
 * that the body returns the stored shape of the endpoint's result.
 */
export function defineSandboxModel<Slug extends InferenceSlug, Schema extends z.ZodMiniType<Record<string, unknown>>>(
  slug: Slug,
  paramsSchema: Schema,
  body: (context: SandboxContext<z.output<Schema>>) => SandboxBody<Slug>,
): SandboxModel {
  return (request) => {
    if (request.slug !== slug) throw new Error(`sandbox model for ${slug} called for ${request.slug}`);
    const context = new SandboxContext(request, paramsSchema.parse(request.params));
    const { result, billableUnits } = body(context);
    return { result: result as Record<string, unknown>, files: context.producedFiles(), billableUnits };
  };
}

/** A box fully inside the image, sized between `minSize` and `maxSize` of each dimension. */
export function randomBox(rng: Rng, minSize = 0.1, maxSize = 0.5): BoundingBox {
  const width = rng.float(minSize, maxSize, 4);
  const height = rng.float(minSize, maxSize, 4);
  return { x: rng.float(0, 1 - width, 4), y: rng.float(0, 1 - height, 4), width, height };
}

export function needsReview(confidences: readonly number[]): boolean {
  return confidences.some((confidence) => confidence < 0.5);
}

/** Sorted by confidence, best first, as every detector reports. */
export function byConfidence<T extends { confidence: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.confidence - a.confidence);
}
