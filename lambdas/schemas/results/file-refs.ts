import * as z from 'zod/mini';
import type { SignedFile } from './common.js';

/**
 * Sandbox models (and the live inference plane) cannot sign URLs: they return
 * `{ file_key }` placeholders pointing into their `files` map. The read path swaps
 * every placeholder for a fresh SignedFile, and only then does the result match the
 * public schemas in this folder.
 */
export const FileRef = z.strictObject({ file_key: z.string().check(z.minLength(1)) });
export type FileRef = z.infer<typeof FileRef>;

/** The stored (internal) shape of a public result type: every SignedFile becomes a FileRef. */
export type WithFileRefs<T> = T extends SignedFile
  ? FileRef
  : T extends readonly (infer Item)[]
    ? WithFileRefs<Item>[]
    : T extends object
      ? { [K in keyof T]: WithFileRefs<T[K]> }
      : T;

export function isFileRef(value: unknown): value is FileRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'file_key' && typeof (value as FileRef).file_key === 'string';
}

/** Returns a copy of `value` with every `{ file_key }` object replaced by `sign(file_key)`. */
export function replaceFileRefs(value: unknown, sign: (fileKey: string) => SignedFile): unknown {
  if (isFileRef(value)) return sign(value.file_key);
  if (Array.isArray(value)) return value.map((item) => replaceFileRefs(item, sign));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceFileRefs(item, sign)]));
  }
  return value;
}

/** Every file key a stored result references, in document order. */
export function fileRefKeys(value: unknown): string[] {
  if (isFileRef(value)) return [value.file_key];
  if (Array.isArray(value)) return value.flatMap(fileRefKeys);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(fileRefKeys);
  return [];
}
