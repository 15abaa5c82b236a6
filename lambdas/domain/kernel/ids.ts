import { createHash, randomBytes } from 'node:crypto';

/** Bitcoin base58; its characters are in ASCII order, so fixed-width bodies sort numerically. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE = 58n;

export type IdPrefix = 'bat' | 'job' | 'whe' | 'evt' | 'whd' | 'req' | 'upl' | 'key' | 'led' | 'org' | 'usr' | 'cs';

function encodeFixedWidth(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = ALPHABET[Number(rest % BASE)]! + out;
    rest /= BASE;
  }
  return out;
}

export function randomBase58(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 58];
  return out;
}

/** 8 chars of millisecond time (good until year 6000+) followed by 14 random chars. */
export function timeOrderedId(prefix: IdPrefix, nowMs: number): string {
  const random = BigInt(`0x${randomBytes(11).toString('hex')}`);
  return `${prefix}_${encodeFixedWidth(BigInt(nowMs), 8)}${encodeFixedWidth(random, 14)}`;
}

/**
 * The lowest id `timeOrderedId` can make at `atMs`: every id made before that millisecond sorts
 * below it, every id made at or after it sorts above (a range bound, never an id itself).
 */
export function timeOrderedFloor(prefix: IdPrefix, atMs: number): string {
  return `${prefix}_${encodeFixedWidth(BigInt(Math.max(0, Math.floor(atMs))), 8)}`;
}

function decodeFixedWidth(body: string): bigint {
  let value = 0n;
  for (const char of body) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${body}`);
    value = value * BASE + BigInt(digit);
  }
  return value;
}

/** The millisecond a `timeOrderedId` was made at: lets a record's `created` come from the same clock reading as its id. */
export function timeOfId(id: string): number {
  return Number(decodeFixedWidth(id.slice(id.indexOf('_') + 1, id.indexOf('_') + 9)));
}

/** Whole epoch seconds of a `timeOrderedId`. */
export function epochSecondsOfId(id: string): number {
  return Math.floor(timeOfId(id) / 1000);
}

/** A base58 string derived from `input` (at most 32 characters): the same input always gives the same string. */
export function derivedBase58(input: string, length: number): string {
  const digest = createHash('sha256').update(input).digest();
  let out = '';
  for (const byte of digest.subarray(0, length)) out += ALPHABET[byte % 58];
  return out;
}

export function randomId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase58(22)}`;
}

export const ID_BODY_PATTERN = '[1-9A-HJ-NP-Za-km-z]{8,32}';
export const JOB_ID_PATTERN = new RegExp(`^job_${ID_BODY_PATTERN}$`);
export const BATCH_ID_PATTERN = new RegExp(`^bat_${ID_BODY_PATTERN}$`);
