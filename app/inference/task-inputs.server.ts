/**
 * A task's `inputs` as the @huggingface/inference 3.13.1 task function takes them. Binary inputs
 * come as the multipart `inputs` file or, in a JSON body, as a base64 data: URL; both become one
 * Blob whose type is sniffed from the bytes, checked against what the task accepts. The server
 * never fetches a URL a visitor gives.
 *
 * Visual and document question answering take `{image, question}` (the library's shape): the
 * image is the file (or a data: URL in `inputs.image`), the question stays in the JSON's `inputs`.
 */
import { GatewayError } from "#app/inference/errors.server.ts";
import { formatLimit, KNOWN_FORMATS, type MediaKind, sniffMedia, type SniffedMedia, uploadLimit } from "#app/inference/media-types.ts";
import { FILE_FIELD, type UploadedFile } from "#app/inference/multipart.server.ts";
import { isTaskName, type TaskRecord, TASKS } from "#app/tasks/task-records.ts";

type BinaryInput = NonNullable<TaskRecord["file"]>;

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z-]+=[^;,]+)*;base64,([A-Za-z0-9+/=\s]*)$/i;

const invalid = (message: string, field: string): GatewayError => new GatewayError({ status: 400, code: "invalid_request", message, field });

/** The bytes of a base64 data: URL; the stated type is ignored (the bytes say what they are). */
function dataUrlBytes(value: unknown, task: string, field: string): Buffer {
  const hint = `${task} takes \`${field}\` as a file in a multipart/form-data request, or as a base64 data: URL (data:<type>;base64,...)`;
  if (typeof value !== "string") throw invalid(`${hint}.`, field);
  const m = DATA_URL.exec(value);
  if (!m) throw invalid(`${hint}; other URLs are never fetched.`, field);
  const bytes = Buffer.from(m[2] ?? "", "base64");
  if (bytes.length === 0) throw invalid(`The data: URL in \`${field}\` holds no bytes.`, field);
  return bytes;
}

function accepted(kinds: readonly MediaKind[]): string {
  return kinds.map((k) => `${k} files (${KNOWN_FORMATS[k].join(", ")})`).join(" or ");
}

/** The bytes as a Blob typed by their sniffed format, refused (415) when the task does not take that kind. */
function typedBlob(bytes: Buffer, known: SniffedMedia | null, task: string, rule: BinaryInput, field: string): Blob {
  const media = known ?? sniffMedia(bytes);
  const fits = media?.kinds.filter((k) => rule.accepts.includes(k)) ?? [];
  if (!media || fits.length === 0) {
    const what = media ? `a ${media.label} file (${media.kinds.join(" or ")})` : "not a file type the gateway recognises";
    throw new GatewayError({
      status: 415,
      code: "unsupported_media_type",
      message: `\`${field}\` is ${what}, judging by its bytes; ${task} takes ${accepted(rule.accepts)}.`,
      field,
    });
  }
  const limit = uploadLimit(media);
  if (bytes.byteLength > limit) {
    throw new GatewayError({ status: 413, code: "body_too_large", message: `The ${media.label} file in \`${field}\` is larger than ${formatLimit(limit)}, the gateway's limit for ${media.kinds.join(" or ")} uploads.`, field });
  }
  // A WebM or MP4 recording given to an audio task is labelled as audio (fal-ai accepts audio/mp4, not video/mp4).
  const mime = fits.includes("audio") && !fits.includes("video") ? media.mime.replace(/^video\//, "audio/") : media.mime;
  // A view, not a copy: Buffer.concat and base64 decoding never hand out a SharedArrayBuffer.
  return new Blob([new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength)], { type: mime });
}

/**
 * `inputs` for the task's library call. Refuses a file given to a task that takes none, an input
 * given both as a file and in the JSON, and a file whose bytes are not a kind the task takes.
 */
export function prepareTaskInputs(task: string | null, inputs: unknown, file: UploadedFile | null): unknown {
  // The kinds of file each task takes are its record's `file`.
  const rule: BinaryInput | undefined = isTaskName(task) ? (TASKS[task].file ?? undefined) : undefined;
  if (task === null || rule === undefined) {
    if (file) {
      const takes = task === null ? "Say which task to run (`task`) when sending a file." : `The ${task} task takes no file; send its inputs in the JSON body.`;
      throw invalid(takes, task === null ? "task" : FILE_FIELD);
    }
    return inputs;
  }
  if (rule.shape === "blob") {
    if (file) {
      if (inputs !== undefined) throw invalid(`\`inputs\` is given twice: as the multipart file and in the \`request\` JSON. Send it once.`, "inputs");
      return typedBlob(file.bytes, file.media, task, rule, FILE_FIELD);
    }
    if (inputs === undefined) throw invalid(`The ${task} task needs \`inputs\`: a file in a multipart/form-data request, or a base64 data: URL.`, "inputs");
    return typedBlob(dataUrlBytes(inputs, task, "inputs"), null, task, rule, "inputs");
  }
  // image-and-question: the library's {image: Blob, question: string}.
  const record = typeof inputs === "object" && inputs !== null && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : null;
  const question = record?.["question"];
  if (typeof question !== "string" || question.trim() === "") {
    throw invalid(`The ${task} task takes \`inputs\` as {question: string, image}: the question in the JSON, the image as the multipart \`${FILE_FIELD}\` file (or a data: URL in inputs.image).`, "inputs.question");
  }
  const extra = Object.keys(record ?? {}).find((k) => k !== "question" && k !== "image");
  if (extra !== undefined) throw invalid(`inputs.${extra} is not an input of ${task}; it takes question and image.`, `inputs.${extra}`);
  if (file) {
    if (record?.["image"] !== undefined) throw invalid("The image is given twice: as the multipart file and as inputs.image. Send it once.", "inputs.image");
    return { question, image: typedBlob(file.bytes, file.media, task, rule, FILE_FIELD) };
  }
  if (record?.["image"] === undefined) throw invalid(`The ${task} task needs an image: the multipart \`${FILE_FIELD}\` file, or a data: URL in inputs.image.`, "inputs.image");
  return { question, image: typedBlob(dataUrlBytes(record["image"], task, "inputs.image"), null, task, rule, "inputs.image") };
}
