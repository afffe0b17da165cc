// Small, real media files for the provider SIMULATOR (a test tool). Generated in code so the
// simulator needs no binary fixtures: images are valid PNGs, speech is valid WAV or FLAC, and
// video is a minimal ISO-BMFF (MP4) container. The bytes depend only on the seed text, so a
// test can predict them.
import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

export function seedBytes(seed: string): Buffer {
  return createHash("sha256").update(seed).digest();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A size x size RGB PNG: a two-colour diagonal pattern whose colours come from the seed. */
export function makePng(seed: string, size = 16): Buffer {
  const hash = seedBytes(seed);
  const a = [hash[0] ?? 0, hash[1] ?? 0, hash[2] ?? 0];
  const b = [hash[3] ?? 255, hash[4] ?? 255, hash[5] ?? 255];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    row[0] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const colour = (x + y) % 4 < 2 ? a : b;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.concat(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG marker segment: FF <marker>, a 16-bit length that counts itself, then the payload. */
function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

// The standard luminance DC table (ITU T.81 Annex K.3): code lengths per length 1..16, then symbols.
const JPEG_DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const JPEG_DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** Canonical Huffman codes (T.81 Annex C) for a DHT's counts and symbols: symbol -> [code, length]. */
function huffmanCodes(counts: readonly number[], symbols: readonly number[]): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < (counts[length - 1] ?? 0); i++) codes.set(symbols[k++] ?? 0, [code++, length]);
    code <<= 1;
  }
  return codes;
}

/**
 * A 16x16 greyscale baseline JPEG (four flat 8x8 blocks whose shades come from the seed), for
 * providers that answer with JPEG (Black Forest Labs' default output_format). Each block is coded
 * by its DC coefficient alone: an all-ones quantisation table, the standard DC Huffman table, and
 * an AC table holding only end-of-block.
 */
export function makeJpeg(seed: string): Buffer {
  const hash = seedBytes(seed);
  const shades = [hash[0] ?? 0, hash[1] ?? 64, hash[2] ?? 128, hash[3] ?? 192];
  const dcCodes = huffmanCodes(JPEG_DC_COUNTS, JPEG_DC_SYMBOLS);
  const bits: number[] = [];
  const put = (value: number, length: number): void => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >> i) & 1);
  };
  let previousDc = 0;
  for (const shade of shades) {
    // A flat block's DC coefficient is 8 x (level - 128); blocks code the difference from the last.
    const dc = 8 * (shade - 128);
    const diff = dc - previousDc;
    previousDc = dc;
    const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
    const [code, length] = dcCodes.get(category) ?? [0, 0];
    put(code, length);
    if (category > 0) put(diff > 0 ? diff : diff + (1 << category) - 1, category);
    put(0, 1); // end of block: the AC table's only code
  }
  while (bits.length % 8 !== 0) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00); // byte stuffing
  }
  const sof = Buffer.from([8, 0, 16, 0, 16, 1, 1, 0x11, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    jpegSegment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    jpegSegment(0xc0, sof),
    jpegSegment(0xc4, Buffer.from([0x00, ...JPEG_DC_COUNTS, ...JPEG_DC_SYMBOLS])),
    jpegSegment(0xc4, Buffer.from([0x10, 1, ...new Array<number>(15).fill(0), 0x00])),
    jpegSegment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    Buffer.from(scan),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function toneSamples(seed: string, sampleRate: number, sampleCount: number): Int16Array {
  const frequency = 220 + ((seedBytes(seed)[0] ?? 0) % 64) * 10;
  const samples = new Int16Array(sampleCount);
  for (let i = 0; i < sampleCount; i++) {
    samples[i] = Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 8000);
  }
  return samples;
}

/** 16-bit mono PCM WAV holding a sine tone whose pitch comes from the seed. */
export function makeWav(seed: string, sampleRate = 16000, seconds = 0.25): Buffer {
  const samples = toneSamples(seed, sampleRate, Math.round(sampleRate * seconds));
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(s, i * 2));
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

class BitWriter {
  private bytes: number[] = [];
  private current = 0;
  private used = 0;
  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** i) & 1);
      this.used++;
      if (this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }
  toBuffer(): Buffer {
    if (this.used !== 0) throw new Error("BitWriter is not byte-aligned");
    return Buffer.from(this.bytes);
  }
}

function crc8(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * A valid FLAC stream (16 kHz, mono, 16-bit) using VERBATIM subframes: uncompressed, but any
 * FLAC decoder accepts it. Two fixed 4096-sample blocks, i.e. 0.512 s of tone.
 */
export function makeFlac(seed: string): Buffer {
  const sampleRate = 16000;
  const blockSize = 4096;
  const blocks = 2;
  const samples = toneSamples(seed, sampleRate, blockSize * blocks);
  const info = new BitWriter();
  info.write(blockSize, 16);
  info.write(blockSize, 16);
  info.write(0, 24); // min frame size unknown
  info.write(0, 24); // max frame size unknown
  info.write(sampleRate, 20);
  info.write(0, 3); // channels - 1
  info.write(15, 5); // bits per sample - 1
  info.write(samples.length, 36);
  const pcm = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => pcm.writeInt16LE(s, i * 2));
  for (const byte of createHash("md5").update(pcm).digest()) info.write(byte, 8); // MD5 of the decoded PCM
  const streamInfo = info.toBuffer();
  const blockHeader = Buffer.from([0x80, 0, 0, streamInfo.length]); // last block, type STREAMINFO
  const frames: Buffer[] = [];
  for (let f = 0; f < blocks; f++) {
    const head = new BitWriter();
    head.write(0b11111111111110, 14);
    head.write(0, 1);
    head.write(0, 1); // fixed block size
    head.write(0b1100, 4); // 4096 samples
    head.write(0b0101, 4); // 16 kHz
    head.write(0, 4); // mono
    head.write(0b100, 3); // 16 bits
    head.write(0, 1);
    head.write(f, 8); // frame number (< 128, one UTF-8 byte)
    const headBytes = head.toBuffer();
    const body = new BitWriter();
    body.write(0, 1);
    body.write(0b000001, 6); // VERBATIM
    body.write(0, 1);
    for (let i = 0; i < blockSize; i++) {
      const s = samples[f * blockSize + i] ?? 0;
      body.write(s < 0 ? s + 0x10000 : s, 16);
    }
    const frameNoCrc = Buffer.concat([headBytes, Buffer.from([crc8(headBytes)]), body.toBuffer()]);
    const footer = Buffer.alloc(2);
    footer.writeUInt16BE(crc16(frameNoCrc));
    frames.push(Buffer.concat([frameNoCrc, footer]));
  }
  return Buffer.concat([Buffer.from("fLaC", "ascii"), blockHeader, streamInfo, ...frames]);
}

function box(type: string, payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, "ascii"), payload]);
}

/** A minimal MP4 container (ftyp + free + mdat). It is well-formed ISO-BMFF but has no playable track. */
export function makeMp4(seed: string): Buffer {
  const ftyp = box("ftyp", Buffer.concat([Buffer.from("isom", "ascii"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2mp41", "ascii")]));
  return Buffer.concat([ftyp, box("free", Buffer.alloc(0)), box("mdat", seedBytes(seed))]);
}

export type MediaKind = "png" | "jpeg" | "gif" | "webp" | "bmp" | "tiff" | "wav" | "flac" | "mp3" | "ogg" | "webm" | "mp4" | "pdf" | "unknown";

/**
 * What the simulated provider makes of a body. It plays the provider's side, so it is kept apart
 * from the gateway's sniffer (app/inference/media-types.ts): a bug there is not hidden by sharing it.
 */
export function sniffMedia(bytes: Uint8Array): MediaKind {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && b.subarray(0, 3).toString("ascii") === "GIF") return "gif";
  if (b.length >= 12 && b.subarray(0, 4).toString("ascii") === "RIFF" && b.subarray(8, 12).toString("ascii") === "WEBP") return "webp";
  if (b.length >= 12 && b.subarray(0, 4).toString("ascii") === "RIFF" && b.subarray(8, 12).toString("ascii") === "WAVE") return "wav";
  if (b.length >= 4 && b.subarray(0, 4).toString("ascii") === "fLaC") return "flac";
  if (b.length >= 4 && b.subarray(0, 4).toString("ascii") === "OggS") return "ogg";
  if (b.length >= 3 && (b.subarray(0, 3).toString("ascii") === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0))) return "mp3";
  if (b.length >= 8 && b.subarray(4, 8).toString("ascii") === "ftyp") return "mp4";
  if (b.length >= 14 && b.subarray(0, 2).toString("ascii") === "BM" && b.readUInt32LE(6) === 0) return "bmp";
  if (b.length >= 4 && (b.subarray(0, 4).toString("latin1") === "II*\0" || b.subarray(0, 4).toString("latin1") === "MM\0*")) return "tiff";
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  if (b.length >= 5 && b.subarray(0, 5).toString("ascii") === "%PDF-") return "pdf";
  return "unknown";
}

/** Duration in seconds for the PCM WAV and FLAC files this module writes (and most others); null if unknown. */
export function audioDurationSeconds(bytes: Uint8Array): number | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = sniffMedia(b);
  if (kind === "wav" && b.length >= 44) {
    const byteRate = b.readUInt32LE(28);
    const dataSize = b.readUInt32LE(40);
    return byteRate > 0 ? dataSize / byteRate : null;
  }
  if (kind === "flac" && b.length >= 42) {
    // STREAMINFO starts at byte 8: sample rate is 20 bits at bit offset 80, total samples 36 bits at 108.
    const info = b.subarray(8, 42);
    const sampleRate = ((info[10] ?? 0) << 12) | ((info[11] ?? 0) << 4) | ((info[12] ?? 0) >> 4);
    const total = ((info[13] ?? 0) & 0x0f) * 2 ** 32 + info.readUInt32BE(14);
    return sampleRate > 0 ? total / sampleRate : null;
  }
  return null;
}

export const MEDIA_CONTENT_TYPES: Record<MediaKind, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  wav: "audio/wav",
  flac: "audio/flac",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  bmp: "image/bmp",
  tiff: "image/tiff",
  webm: "video/webm",
  pdf: "application/pdf",
  unknown: "application/octet-stream",
};
