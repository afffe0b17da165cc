/**
 * What a file is, read from its first bytes (magic numbers), never from a stated content type or
 * a file name. The gateway uses it to check an upload against the task, to size-limit it by kind,
 * and to label generated media on the way back.
 */

/** The families the gateway limits and routes by. */
export type MediaKind = "image" | "audio" | "video" | "document";

export interface SniffedMedia {
  /** The content type the bytes are, e.g. "image/png". */
  mime: string;
  /** A short name for messages, e.g. "PNG". */
  label: string;
  /** Every kind the format can carry: a WebM or MP4 container may be a recording or a video. */
  kinds: readonly MediaKind[];
}

const ascii = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));
const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const IMAGE: readonly MediaKind[] = ["image"];
const AUDIO: readonly MediaKind[] = ["audio"];
const AUDIO_OR_VIDEO: readonly MediaKind[] = ["audio", "video"];

/** Enough leading bytes to tell every format below apart. */
export const SNIFF_BYTES = 64;

/** The format of `bytes`, or null when it is none the gateway knows. */
export function sniffMedia(bytes: Uint8Array): SniffedMedia | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: "image/png", label: "PNG", kinds: IMAGE };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: "image/jpeg", label: "JPEG", kinds: IMAGE };
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")) return { mime: "image/gif", label: "GIF", kinds: IMAGE };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF") {
    const form = ascii(bytes, 8, 12);
    if (form === "WEBP") return { mime: "image/webp", label: "WebP", kinds: IMAGE };
    if (form === "WAVE") return { mime: "audio/wav", label: "WAV", kinds: AUDIO };
  }
  if (bytes.length >= 14 && ascii(bytes, 0, 2) === "BM") {
    // The BITMAPFILEHEADER's reserved words are zero; plain "BM" text would not be.
    if (bytes[6] === 0 && bytes[7] === 0 && bytes[8] === 0 && bytes[9] === 0) return { mime: "image/bmp", label: "BMP", kinds: IMAGE };
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return { mime: "image/tiff", label: "TIFF", kinds: IMAGE };
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === "fLaC") return { mime: "audio/flac", label: "FLAC", kinds: AUDIO };
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === "OggS") return { mime: "audio/ogg", label: "Ogg", kinds: AUDIO };
  if (bytes.length >= 3 && ascii(bytes, 0, 3) === "ID3") return { mime: "audio/mpeg", label: "MP3", kinds: AUDIO };
  // An MPEG audio frame header: 11 sync bits, then a layer that is not "reserved" (00).
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && ((bytes[1] ?? 0) & 0x06) !== 0) return { mime: "audio/mpeg", label: "MP3", kinds: AUDIO };
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    // EBML: WebM names its doctype early in the header; other Matroska files are not taken.
    const head = ascii(bytes, 4, Math.min(bytes.length, SNIFF_BYTES));
    if (head.includes("webm")) return { mime: "video/webm", label: "WebM", kinds: AUDIO_OR_VIDEO };
    return null;
  }
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (brand === "M4A " || brand === "M4B ") return { mime: "audio/mp4", label: "M4A", kinds: AUDIO };
    if (brand.startsWith("qt")) return { mime: "video/quicktime", label: "QuickTime", kinds: AUDIO_OR_VIDEO };
    return { mime: "video/mp4", label: "MP4", kinds: AUDIO_OR_VIDEO };
  }
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === "%PDF-") return { mime: "application/pdf", label: "PDF", kinds: ["document"] };
  return null;
}

/** The largest upload the gateway reads for each kind; past it the answer is 413. */
export const UPLOAD_LIMITS: Readonly<Record<MediaKind, number>> = {
  image: 10 * 1024 * 1024,
  audio: 25 * 1024 * 1024,
  video: 25 * 1024 * 1024,
  document: 10 * 1024 * 1024,
};

/** The limit for a sniffed file: the largest of its kinds' (a WebM recording is audio-sized). */
export function uploadLimit(media: SniffedMedia): number {
  return Math.max(...media.kinds.map((k) => UPLOAD_LIMITS[k]));
}

/** "10 MB" for messages. */
export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Every format the sniffer knows, by kind, for "accepted types" messages. */
export const KNOWN_FORMATS: Readonly<Record<MediaKind, readonly string[]>> = {
  image: ["PNG", "JPEG", "GIF", "WebP", "BMP", "TIFF"],
  audio: ["WAV", "FLAC", "MP3", "Ogg", "WebM", "M4A", "MP4"],
  video: ["MP4", "WebM", "QuickTime"],
  document: ["PDF"],
};
