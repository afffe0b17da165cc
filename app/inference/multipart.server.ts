/**
 * A streaming reader for the one multipart/form-data body POST /api/inference takes: a `request`
 * field holding the JSON body and an optional file field `inputs`. Parts are read as they arrive:
 * the file's type is sniffed from its first bytes, its size limit follows from that type, and the
 * read stops at the limit. Nothing is written to disk; the file lives in memory for the request.
 */
import type { IncomingMessage } from "node:http";
import { GatewayError } from "#app/inference/errors.server.ts";
import { formatLimit, KNOWN_FORMATS, SNIFF_BYTES, sniffMedia, type SniffedMedia, UPLOAD_LIMITS, uploadLimit } from "#app/inference/media-types.ts";

/** The multipart field holding the JSON body. */
export const REQUEST_FIELD = "request";
/** The multipart field holding the binary input. */
export const FILE_FIELD = "inputs";

export interface UploadedFile {
  bytes: Buffer;
  /** What the bytes are; the declared Content-Type and file name are never trusted for this. */
  media: SniffedMedia;
  filename: string | null;
}

export interface MultipartForm {
  /** The `request` field's text, or null when the form had none. */
  request: string | null;
  /** Every text field's value, by name (the `request` field included). */
  fields: Record<string, string>;
  file: UploadedFile | null;
}

/** Which fields a form may hold: text fields, one file field, and the text field it must have. */
export interface FormShape {
  textFields: readonly string[];
  fileField: string;
  /** A text field the form cannot do without (null: none). */
  requiredText: string | null;
  /** What to say when a field is not one the route takes. */
  describe: string;
}

/** POST /api/inference's form: the JSON body in `request`, the file in `inputs`. */
export const GATEWAY_FORM: FormShape = {
  textFields: [REQUEST_FIELD],
  fileField: FILE_FIELD,
  requiredText: REQUEST_FIELD,
  describe: `send \`${REQUEST_FIELD}\` (the JSON body) and \`${FILE_FIELD}\` (the file)`,
};

// Part headers are a Content-Disposition and a Content-Type: anything longer is not a browser's form.
const MAX_PART_HEADER_BYTES = 8 * 1024;
// Bytes outside parts (preamble, epilogue, boundaries) a well-formed form never comes near.
const MAX_FRAMING_BYTES = 64 * 1024;

const badForm = (message: string, field: string | null = null): GatewayError => new GatewayError({ status: 400, code: "invalid_request", message, field });

function tooLarge(message: string, field: string): GatewayError {
  return new GatewayError({ status: 413, code: "body_too_large", message, hint: "The file is too large to send.", field });
}

/** The boundary of a multipart/form-data Content-Type, or null when it names none. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** The largest body a form can be: the JSON field, the largest file, and framing. */
export function maxFormBytes(maxRequestBytes: number): number {
  return maxRequestBytes + Math.max(...Object.values(UPLOAD_LIMITS)) + MAX_FRAMING_BYTES;
}

function dispositionParam(header: string, name: string): string | null {
  const m = new RegExp(`(?:^|;)\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, "i").exec(header);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? null);
}

interface PartSink {
  write(chunk: Buffer): void;
  finish(): void;
}

/**
 * The form parser: push() the body's chunks as they come, then end(). Throws a GatewayError (400
 * malformed, 413 past a limit, 415 a file of no known type) as soon as the bytes show it.
 */
export class MultipartParser {
  private readonly delimiter: Buffer;
  // The body is read as if it began with CRLF, so the first boundary matches the same delimiter.
  private pending: Buffer = Buffer.from("\r\n");
  private state: "preamble" | "after-boundary" | "headers" | "body" | "done" = "preamble";
  private part: PartSink | null = null;
  private framingBytes = 0;
  private readonly fields: Record<string, string> = {};
  private textBytes = 0;
  private file: UploadedFile | null = null;
  private readonly seen = new Set<string>();

  constructor(
    boundary: string,
    private readonly maxRequestBytes: number,
    private readonly shape: FormShape = GATEWAY_FORM,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  }

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.advance();
  }

  end(): MultipartForm {
    if (this.state !== "done") throw badForm("The multipart body ended before its closing boundary.");
    const required = this.shape.requiredText;
    if (required !== null && this.fields[required] === undefined) {
      throw badForm(
        required === REQUEST_FIELD
          ? `A multipart request needs a \`${REQUEST_FIELD}\` field holding the JSON body (model, task, parameters, ...), with the file in \`${FILE_FIELD}\`.`
          : `A multipart request needs a \`${required}\` field.`,
        required,
      );
    }
    return { request: this.fields[REQUEST_FIELD] ?? null, fields: { ...this.fields }, file: this.file };
  }

  private countFraming(bytes: number): void {
    this.framingBytes += bytes;
    if (this.framingBytes > MAX_FRAMING_BYTES) throw badForm("The multipart body has more framing (preamble, headers, boundaries) than a form needs.");
  }

  private advance(): void {
    for (;;) {
      switch (this.state) {
        case "preamble": {
          const at = this.pending.indexOf(this.delimiter);
          if (at < 0) {
            const keep = Math.min(this.pending.length, this.delimiter.length - 1);
            this.countFraming(this.pending.length - keep);
            this.pending = this.pending.subarray(this.pending.length - keep);
            return;
          }
          this.countFraming(at + this.delimiter.length);
          this.pending = this.pending.subarray(at + this.delimiter.length);
          this.state = "after-boundary";
          break;
        }
        case "after-boundary": {
          if (this.pending.length < 2) return;
          const next = this.pending.toString("latin1", 0, 2);
          if (next === "--") {
            this.state = "done";
            // The epilogue is ignored, as RFC 2046 says.
            this.pending = Buffer.alloc(0);
            return;
          }
          if (next !== "\r\n") throw badForm("The multipart body is malformed: a boundary is not followed by a line break.");
          this.pending = this.pending.subarray(2);
          this.state = "headers";
          break;
        }
        case "headers": {
          const at = this.pending.indexOf("\r\n\r\n", 0, "latin1");
          if (at < 0) {
            if (this.pending.length > MAX_PART_HEADER_BYTES) throw badForm("A multipart part's headers are too long.");
            return;
          }
          if (at > MAX_PART_HEADER_BYTES) throw badForm("A multipart part's headers are too long.");
          this.countFraming(at + 4);
          this.part = this.openPart(this.pending.toString("utf8", 0, at));
          this.pending = this.pending.subarray(at + 4);
          this.state = "body";
          break;
        }
        case "body": {
          const part = this.part;
          if (!part) throw new Error("multipart: body without a part");
          const at = this.pending.indexOf(this.delimiter);
          if (at < 0) {
            // Keep a tail that could be the start of the delimiter; the rest belongs to the part.
            const safe = this.pending.length - (this.delimiter.length - 1);
            if (safe > 0) {
              part.write(this.pending.subarray(0, safe));
              this.pending = this.pending.subarray(safe);
            }
            return;
          }
          if (at > 0) part.write(this.pending.subarray(0, at));
          part.finish();
          this.part = null;
          this.pending = this.pending.subarray(at + this.delimiter.length);
          this.state = "after-boundary";
          break;
        }
        case "done":
          this.pending = Buffer.alloc(0);
          return;
      }
    }
  }

  private openPart(headerText: string): PartSink {
    let disposition: string | null = null;
    for (const line of headerText.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === "content-disposition") disposition = line.slice(colon + 1).trim();
    }
    if (disposition === null || !/^form-data\b/i.test(disposition)) throw badForm("Every multipart part needs a Content-Disposition: form-data header.");
    const name = dispositionParam(disposition, "name");
    if (name === null || (name !== this.shape.fileField && !this.shape.textFields.includes(name))) {
      throw badForm(`The multipart field \`${name ?? "(unnamed)"}\` is not one the gateway takes: ${this.shape.describe}.`, name);
    }
    if (this.seen.has(name)) throw badForm(`The multipart field \`${name}\` is given twice.`, name);
    this.seen.add(name);
    return name === this.shape.fileField ? this.fileSink(dispositionParam(disposition, "filename")) : this.textSink(name);
  }

  private textSink(name: string): PartSink {
    const chunks: Buffer[] = [];
    return {
      write: (chunk) => {
        // The text fields together are held to the JSON body's limit.
        this.textBytes += chunk.length;
        if (this.textBytes > this.maxRequestBytes) throw tooLarge(`The \`${name}\` field is larger than ${this.maxRequestBytes} bytes, the gateway's limit for the JSON body.`, name);
        chunks.push(Buffer.from(chunk));
      },
      finish: () => {
        const text = Buffer.concat(chunks);
        try {
          this.fields[name] = new TextDecoder("utf-8", { fatal: true }).decode(text);
        } catch {
          throw badForm(`The \`${name}\` field is not valid UTF-8.`, name);
        }
      },
    };
  }

  private fileSink(filename: string | null): PartSink {
    const chunks: Buffer[] = [];
    let size = 0;
    let media: SniffedMedia | null = null;
    let limit = Infinity;
    const sniff = (): SniffedMedia => {
      const head = Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
      const found = sniffMedia(head);
      if (!found) {
        const all = Object.entries(KNOWN_FORMATS).map(([kind, formats]) => `${kind}s (${formats.join(", ")})`);
        throw new GatewayError({
          status: 415,
          code: "unsupported_media_type",
          message: `The file in \`${this.shape.fileField}\` is not a type the gateway accepts, judging by its bytes. Accepted: ${all.join("; ")}.`,
          field: this.shape.fileField,
        });
      }
      return found;
    };
    return {
      write: (chunk) => {
        size += chunk.length;
        chunks.push(Buffer.from(chunk));
        if (media === null && size >= SNIFF_BYTES) {
          media = sniff();
          limit = uploadLimit(media);
        }
        if (media !== null && size > limit) {
          chunks.length = 0;
          throw tooLarge(`The ${media.label} file in \`${this.shape.fileField}\` is larger than ${formatLimit(limit)}, the gateway's limit for ${media.kinds.join(" or ")} uploads.`, this.shape.fileField);
        }
      },
      finish: () => {
        if (size === 0) throw badForm(`The file in \`${this.shape.fileField}\` is empty.`, this.shape.fileField);
        media ??= sniff();
        this.file = { bytes: Buffer.concat(chunks, size), media, filename };
      },
    };
  }
}

/**
 * The form from Node's request. On a refusal the rest of the body is read and dropped (never kept),
 * so the JSON error can still reach the client.
 */
export function readNodeMultipart(req: IncomingMessage, boundary: string, maxRequestBytes: number, shape: FormShape = GATEWAY_FORM): Promise<MultipartForm> {
  const maxBytes = maxFormBytes(maxRequestBytes);
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge(`The request body is larger than ${formatLimit(maxBytes)}, more than any form the gateway takes.`, shape.fileField));
  }
  const parser = new MultipartParser(boundary, maxRequestBytes, shape);
  return new Promise((resolve, reject) => {
    const detach = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (error) {
        detach();
        req.resume();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onEnd = () => {
      detach();
      try {
        resolve(parser.end());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
  });
}
