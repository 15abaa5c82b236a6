import type { InferenceSlug } from '../domain/catalogue/catalogue.js';

/** One input asset as the test-mode backend sees it: a description, never the bytes. */
export interface SandboxAsset {
  /** 0-based position in the request */
  index: number;
  filename: string | null;
  contentType: string;
  sizeBytes: number;
  /** hex SHA-256 of the bytes; sandbox models derive their deterministic values from it */
  sha256: string;
}

export interface SandboxRequest {
  slug: InferenceSlug;
  jobId: string;
  /** validated endpoint parameters (the parsed output of the endpoint's params schema) */
  params: Record<string, unknown>;
  assets: SandboxAsset[];
  /** only `empty_result` and `low_confidence` reach a sandbox model; the pipeline handles the others */
  scenario: 'empty_result' | 'low_confidence' | null;
}

/** A file the sandbox model produced; the pipeline stores it and signs a URL for it on every read. */
export interface SandboxFile {
  contentType: string;
  bytes: Uint8Array;
  width?: number;
  height?: number;
  /**
   * Set when the "produced" file is input asset `sourceIndex` returned unchanged (a
   * passthrough): `bytes` is then empty and the pipeline copies the stored input instead.
   */
  sourceIndex?: number;
}

export interface SandboxOutput {
  /**
   * Endpoint result. Where it references a produced file it holds `{ file_key: "<key of files>" }`;
   * the read path replaces that object with a signed `{ url, expires_at, content_type, ... }`.
   */
  result: Record<string, unknown>;
  files: Record<string, SandboxFile>;
  /** units the real model would bill: images processed, seconds of audio/video, or 1 per request */
  billableUnits: number;
}

export type SandboxModel = (request: SandboxRequest) => SandboxOutput;

export type { InferenceSlug };
