import { describe, expect, it } from 'vitest';
import { storedMediaType } from '../../../../lambdas/domain/jobs/inputs.js';

const bytes = (...parts: Array<number[] | string>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('the media type kept for an incoming file', () => {
  it('names the image format of a file labelled application/octet-stream by its leading bytes', () => {
    expect(storedMediaType('application/octet-stream', bytes([0xff, 0xd8, 0xff, 0xe0], 'rest'))).toBe('image/jpeg');
    expect(storedMediaType('application/octet-stream', bytes([0x89], 'PNG\r\n\x1a\n', 'rest'))).toBe('image/png');
    expect(storedMediaType('application/octet-stream', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(storedMediaType('application/octet-stream', bytes('GIF89a'))).toBe('image/gif');
  });

  it('keeps application/octet-stream for bytes it does not know, and any other declared type as sent', () => {
    expect(storedMediaType('application/octet-stream', bytes('%PDF-1.7'))).toBe('application/octet-stream');
    expect(storedMediaType('application/octet-stream', bytes([]))).toBe('application/octet-stream');
    expect(storedMediaType('image/png', bytes([0xff, 0xd8, 0xff]))).toBe('image/png');
  });
});
