import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { joinChunks, parseMultipart } from '../../../lambdas/http/multipart.js';

const BOUNDARY = 'bNdRy';
const limits = { maxFileBytes: 10 * 1024 * 1024, maxFiles: 3, fileFields: ['images', 'images[]'] };

function body(files: Buffer[]): Buffer {
  return Buffer.concat([
    ...files.flatMap((file, i) => [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="images"; filename="dir/${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="background"\r\n\r\nshowroom\r\n--${BOUNDARY}--\r\n`,
    ),
  ]);
}

describe('parseMultipart', () => {
  it('returns each file as a view into the request body, hashed on the way, with its folders', async () => {
    const files = [randomBytes(3 * 1024 * 1024), randomBytes(1000), Buffer.from('\r\n--bNdR\r\n-- not a boundary')];
    const raw = body(files);
    const parsed = await parseMultipart(raw, `multipart/form-data; boundary=${BOUNDARY}`, limits);
    expect(parsed.fields).toEqual({ background: 'showroom' });
    expect(parsed.files.map((file) => file.filename)).toEqual(['dir/0.jpg', 'dir/1.jpg', 'dir/2.jpg']);
    parsed.files.forEach((file, i) => {
      expect(file.bytes.equals(files[i]!)).toBe(true);
      expect(file.sha256).toBe(createHash('sha256').update(files[i]!).digest('hex'));
      // no second copy of the bytes: the same memory as the body
      expect(file.bytes.buffer).toBe(raw.buffer);
    });
  });
});

describe('joinChunks', () => {
  it('makes one view of adjacent slices and copies only what is not adjacent', () => {
    // small Buffers share Node's allocation pool, so sharing is checked by writing through
    const backing = Buffer.from('abcdefghij');
    const adjacent = joinChunks([backing.subarray(1, 4), backing.subarray(4, 8)], 7);
    expect(adjacent.toString()).toBe('bcdefgh');
    const gapped = joinChunks([backing.subarray(1, 3), backing.subarray(5, 7)], 4);
    expect(gapped.toString()).toBe('bcfg');
    const elsewhere = joinChunks([backing.subarray(0, 2), Buffer.from('xy')], 4);
    expect(elsewhere.toString()).toBe('abxy');
    backing.write('BCDEFG', 1);
    expect(adjacent.toString()).toBe('BCDEFGh');
    expect(gapped.toString()).toBe('bcfg');
    expect(elsewhere.toString()).toBe('abxy');
    expect(joinChunks([], 0).length).toBe(0);
    const single = backing.subarray(2, 5);
    expect(joinChunks([single], 3)).toBe(single);
  });
});
