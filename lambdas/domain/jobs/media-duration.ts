// How long a clip runs, read from its container's header with a few small ranged reads, never by
// decoding it (no ffmpeg): MP4 and QuickTime from the movie header (`mvhd`, wherever `moov` sits;
// a fragmented file's `mehd`, or its `sidx` segment indexes), WAV from its `fmt ` and `data` chunks.
// Per-second endpoints meter by it (docs/internals/jobs-and-credits.md, "Per-second metering").

/** Reads `length` bytes at `offset` (fewer at the end of the object; none past it). */
export type RangeReader = (offset: number, length: number) => Promise<Uint8Array>;

/** A reader over bytes already in memory (a multipart file). */
export function bytesReader(bytes: Uint8Array): RangeReader {
  return async (offset, length) => bytes.subarray(offset, Math.min(offset + length, bytes.length));
}

/** Top-level boxes or chunks visited before giving up: a real file has a handful before `moov`. */
const MAX_BOXES = 64;
const MP4_TYPES = /^(video|audio)\/(mp4|quicktime|x-m4a|m4a|mp4a|x-m4v)$/;
const WAV_TYPES = /^audio\/(wav|wave|x-wav|vnd\.wave)$/;

/** Seconds the clip runs, or null when its container is not one this reads or its header says nothing usable. */
export async function mediaDurationSeconds(
  contentType: string,
  size: number,
  read: RangeReader,
): Promise<number | null> {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  try {
    if (MP4_TYPES.test(type)) return await mp4Duration(size, read);
    if (WAV_TYPES.test(type)) return await wavDuration(size, read);
  } catch (error) {
    if (error instanceof TruncatedHeader) return null;
    throw error;
  }
  return null;
}

class TruncatedHeader extends Error {}

async function readExactly(read: RangeReader, offset: number, length: number): Promise<DataView> {
  const bytes = await read(offset, length);
  if (bytes.length < length) throw new TruncatedHeader();
  return new DataView(bytes.buffer, bytes.byteOffset, length);
}

const fourCc = (view: DataView, at: number) =>
  String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));

interface Box {
  type: string;
  /** where its payload starts */
  payload: number;
  /** where the box ends */
  end: number;
}

/** The boxes between `start` and `end`, one header read each. */
async function* boxes(read: RangeReader, start: number, end: number): AsyncGenerator<Box> {
  let offset = start;
  for (let visited = 0; offset + 8 <= end && visited < MAX_BOXES; visited += 1) {
    const header = await readExactly(read, offset, Math.min(16, end - offset));
    let size = header.getUint32(0);
    let headerSize = 8;
    if (size === 1) {
      if (header.byteLength < 16) return;
      size = Number(header.getBigUint64(8));
      headerSize = 16;
    } else if (size === 0) size = end - offset;
    if (size < headerSize) return;
    yield { type: fourCc(header, 4), payload: offset + headerSize, end: Math.min(offset + size, end) };
    offset += size;
  }
}

async function child(read: RangeReader, parent: Box, type: string): Promise<Box | null> {
  for await (const box of boxes(read, parent.payload, parent.end)) if (box.type === type) return box;
  return null;
}

async function mp4Duration(size: number, read: RangeReader): Promise<number | null> {
  let moov: Box | null = null;
  let indexed = 0;
  for await (const box of boxes(read, 0, size)) {
    if (box.type === 'moov') moov = box;
    // a fragmented file without a total in its header: its segment indexes add up to it
    else if (box.type === 'sidx') indexed += await sidxSeconds(read, box);
    else if (moov && box.type === 'moof') break;
  }
  if (!moov) return indexed > 0 ? indexed : null;
  const mvhd = await child(read, moov, 'mvhd');
  if (!mvhd) return null;
  const header = await readExactly(read, mvhd.payload, 32);
  const version = header.getUint8(0);
  const timescale = version === 1 ? header.getUint32(20) : header.getUint32(12);
  const duration = version === 1 ? Number(header.getBigUint64(24)) : header.getUint32(16);
  const unknown = version === 1 ? duration === Number(0xffff_ffff_ffff_ffffn) : duration === 0xffff_ffff;
  if (timescale > 0 && duration > 0 && !unknown) return duration / timescale;
  const fragmented = await fragmentDuration(read, moov, timescale);
  if (fragmented !== null) return fragmented;
  return indexed > 0 ? indexed : null;
}

/** A fragmented movie's total from `moov/mvex/mehd`, in the movie's timescale. */
async function fragmentDuration(read: RangeReader, moov: Box, timescale: number): Promise<number | null> {
  if (timescale <= 0) return null;
  const mvex = await child(read, moov, 'mvex');
  const mehd = mvex ? await child(read, mvex, 'mehd') : null;
  if (!mehd) return null;
  const header = await readExactly(read, mehd.payload, 12);
  const duration = header.getUint8(0) === 1 ? Number(header.getBigUint64(4)) : header.getUint32(4);
  return duration > 0 ? duration / timescale : null;
}

/** The seconds one `sidx` box indexes: the sum of its subsegment durations over its timescale. */
async function sidxSeconds(read: RangeReader, sidx: Box): Promise<number> {
  const head = await readExactly(read, sidx.payload, 12);
  const version = head.getUint8(0);
  const timescale = head.getUint32(8);
  const countAt = sidx.payload + (version === 0 ? 20 : 28);
  const count = (await readExactly(read, countAt, 4)).getUint16(2);
  if (timescale === 0 || count === 0) return 0;
  const references = await readExactly(read, countAt + 4, count * 12);
  let ticks = 0;
  for (let i = 0; i < count; i += 1) ticks += references.getUint32(i * 12 + 4);
  return ticks / timescale;
}

/** RIFF/WAVE: the `data` chunk's length over the `fmt ` chunk's byte rate. */
async function wavDuration(size: number, read: RangeReader): Promise<number | null> {
  const riff = await readExactly(read, 0, 12);
  if (fourCc(riff, 0) !== 'RIFF' || fourCc(riff, 8) !== 'WAVE') return null;
  let byteRate = 0;
  let offset = 12;
  for (let visited = 0; offset + 8 <= size && visited < MAX_BOXES; visited += 1) {
    const chunk = await readExactly(read, offset, 8);
    const id = fourCc(chunk, 0);
    const length = chunk.getUint32(4, true);
    if (id === 'fmt ') byteRate = (await readExactly(read, offset + 8, 12)).getUint32(8, true);
    if (id === 'data') {
      if (byteRate === 0) return null;
      // a streamed recording may leave the length unset (0 or 0xFFFFFFFF): the rest of the file is its data
      const bytes = length === 0 || length === 0xffff_ffff ? size - offset - 8 : Math.min(length, size - offset - 8);
      return bytes / byteRate;
    }
    offset += 8 + length + (length % 2);
  }
  return null;
}
