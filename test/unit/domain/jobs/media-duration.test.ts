import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { billedUnits, callPrice } from '../../../../lambdas/domain/jobs/call-price.js';
import { bytesReader, mediaDurationSeconds } from '../../../../lambdas/domain/jobs/media-duration.js';

const box = (type: string, ...payload: Uint8Array[]): Uint8Array => {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
};
const u32 = (...values: number[]) => {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [i, value] of values.entries()) bytes.writeUInt32BE(value, i * 4);
  return bytes;
};
/** mvhd version 0: version/flags, creation, modification, timescale, duration, then the rest of the box. */
const mvhd = (timescale: number, duration: number) => box('mvhd', u32(0, 0, 0, timescale, duration), Buffer.alloc(80));
const durationOf = (bytes: Uint8Array, type = 'video/mp4') =>
  mediaDurationSeconds(type, bytes.length, bytesReader(bytes));

describe('the duration of a clip, from its header', () => {
  it('reads the 6 s walk-around sample from its movie header', async () => {
    expect(await durationOf(readFileSync(new URL('../../../../samples/walkaround.mp4', import.meta.url)))).toBe(6);
  });

  it('finds moov after the media data (a file not made for streaming)', async () => {
    const file = Buffer.concat([
      box('ftyp', Buffer.from('isom')),
      box('mdat', Buffer.alloc(5000)),
      box('moov', mvhd(600, 4500)),
    ]);
    expect(await durationOf(file, 'video/quicktime')).toBe(7.5);
  });

  it('reads a fragmented file’s total from mehd when its movie header says 0', async () => {
    const mehd = box('mehd', u32(0, 90_000 * 12));
    const file = Buffer.concat([
      box('ftyp', Buffer.from('iso6')),
      box('moov', mvhd(90_000, 0), box('mvex', mehd)),
      box('moof', Buffer.alloc(16)),
      box('mdat', Buffer.alloc(100)),
    ]);
    expect(await durationOf(file)).toBe(12);
  });

  it('reads a WAV file from its fmt and data chunks', async () => {
    const fmt = Buffer.alloc(16);
    fmt.writeUInt16LE(1, 0);
    fmt.writeUInt16LE(1, 2);
    fmt.writeUInt32LE(16_000, 4);
    fmt.writeUInt32LE(32_000, 8);
    const data = Buffer.alloc(32_000 * 3 + 100);
    const chunk = (id: string, body: Buffer) => {
      const header = Buffer.alloc(8);
      header.write(id, 0, 'latin1');
      header.writeUInt32LE(body.length, 4);
      return Buffer.concat([header, body]);
    };
    const riff = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), chunk('data', data)]);
    const header = Buffer.alloc(8);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(riff.length, 4);
    expect(await durationOf(Buffer.concat([header, riff]), 'audio/wav')).toBeCloseTo(3.003, 3);
  });

  it('says nothing of containers it does not read, nor of a truncated header', async () => {
    expect(await durationOf(Buffer.from('\x1aE\xdf\xa3 webm bytes'), 'video/webm')).toBeNull();
    expect(await durationOf(Buffer.from([0, 0, 0, 40, 0x6d, 0x6f, 0x6f, 0x76]))).toBeNull();
  });
});

describe('per-second pricing from the measured duration', () => {
  const video = CATALOGUE['video.onboard'];

  it('reserves and estimates every started second of a measured clip', () => {
    expect(callPrice(video, [{ content_type: 'video/mp4', duration_seconds: 6 }])).toMatchObject({
      units: 6,
      reserve: 6,
      estimate: 6,
    });
    expect(callPrice(video, [{ content_type: 'video/mp4', duration_seconds: 6.2 }]).reserve).toBe(7);
  });

  it('reserves the longest clip the endpoint takes when the length is unknown', () => {
    expect(callPrice(video, [{ content_type: 'video/webm', duration_seconds: null }]).reserve).toBe(180);
  });

  it('caps a plane’s report at the measured seconds, or at the longest clip when unknown', () => {
    expect(billedUnits(video, [{ content_type: 'video/mp4', duration_seconds: 6 }], 500)).toBe(6);
    expect(billedUnits(video, [{ content_type: 'video/mp4', duration_seconds: 6 }], 4)).toBe(4);
    expect(billedUnits(video, [{ content_type: 'video/webm', duration_seconds: null }], 500)).toBe(180);
  });
});
