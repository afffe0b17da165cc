/**
 * Files a widget sends or offers for download. An upload is checked in the browser with the
 * gateway's own sniffer and limits (app/inference/media-types.ts), so a visitor hears of a wrong or
 * oversize file before it is sent; the gateway checks again.
 */
import { formatLimit, KNOWN_FORMATS, type MediaKind, SNIFF_BYTES, sniffMedia, UPLOAD_LIMITS } from "#app/inference/media-types.ts";
import { formatBytes } from "#app/demos/shared/run-inference.ts";

export type FileCheck = { ok: true; mime: string; label: string } | { ok: false; message: string };

const KIND_NAMES: Readonly<Record<MediaKind, string>> = { image: "an image", audio: "a recording", video: "a video", document: "a PDF" };

/** Whether a file with these first bytes and this size is one a widget taking `accept` can send. */
export function checkFile(head: Uint8Array, size: number, accept: readonly MediaKind[]): FileCheck {
  const sniffed = sniffMedia(head);
  const kinds = sniffed ? sniffed.kinds.filter((k) => accept.includes(k)) : [];
  if (!sniffed || kinds.length === 0) {
    const formats = [...new Set(accept.flatMap((k) => KNOWN_FORMATS[k]))].join(", ");
    const wanted = accept.map((k) => KIND_NAMES[k]).join(" or ");
    return { ok: false, message: `This file is not ${wanted}${sniffed ? ` (it is ${sniffed.label})` : ""}. Accepted formats: ${formats}.` };
  }
  const limit = Math.max(...kinds.map((k) => UPLOAD_LIMITS[k]));
  if (size > limit) return { ok: false, message: `This ${sniffed.label} is ${formatBytes(size)}; the limit is ${formatLimit(limit)}.` };
  return { ok: true, mime: sniffed.mime, label: sniffed.label };
}

/** checkFile on a Blob, reading only its first bytes. */
export async function checkBlob(blob: Blob, accept: readonly MediaKind[]): Promise<FileCheck> {
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  return checkFile(head, blob.size, accept);
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
  "image/tiff": "tiff",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "audio/wav": "wav",
  "audio/flac": "flac",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "application/pdf": "pdf",
};

/** A download's file name: a slug of `base` and the extension of its content type. */
export function downloadName(base: string, contentType: string): string {
  const slug = base.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "output";
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return `${slug}.${EXTENSIONS[mime] ?? "bin"}`;
}

/** The last path segment of a URL as a file name, or a fallback. */
export function fileNameFromUrl(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return fallback;
  }
}
