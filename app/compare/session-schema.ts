/**
 * The session file (schema version 1): a comparison or a playground chat, saved as JSON and opened
 * again without re-running anything. The zod schema is the one definition: incoming files are
 * validated with it, and /schemas/session-v1.json publishes the JSON Schema derived from it
 * (sessionJsonSchema), so the two cannot drift. Every string and list is bounded, objects are
 * strict (an unknown field is an error, not silently kept), and there is no field for a token.
 */
import { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";
import { routeSchema } from "#app/compare/compare-setup.ts";

export const SESSION_SCHEMA_VERSION = 1;
export const SESSION_SCHEMA_PATH = "/schemas/session-v1.json";
/** Files larger than this are refused before parsing. */
export const MAX_SESSION_BYTES = 4 * 1024 * 1024;

const MAX_TEXT = 200_000;
const shortText = (max: number) => z.string().max(max, `is longer than ${max} characters`);
const count = z.number().int().min(0).max(1e9);
const ms = z.number().min(0).max(86_400_000);

const parameterValue = z.union([z.number().finite(), z.string().max(2_000), z.boolean()]);
/** Parameter names as the specs spell them (temperature, max_tokens, candidate_labels). */
const parameters = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "parameter names are lowercase words"), parameterValue).refine((r) => Object.keys(r).length <= 40, "holds more than 40 parameters");

export const metricsSchema = z.strictObject({
  /** Sending the request to the first token (streamed) or to the answer, in ms. */
  timeToFirstTokenMs: ms.nullable(),
  tokensPerSecond: z.number().min(0).max(1e7).nullable(),
  totalMs: ms,
  promptTokens: count.nullable(),
  completionTokens: count.nullable(),
  totalTokens: count.nullable(),
  /** "provider" when the provider reported the usage, "counted" when the gateway counted chunks, null when neither. */
  usageSource: z.enum(["provider", "counted"]).nullable(),
});

export const runErrorSchema = z.strictObject({
  code: shortText(80),
  message: shortText(4_000),
  hint: shortText(4_000).nullable(),
});

export const turnSchema = z.strictObject({
  role: z.enum(["user", "assistant"]),
  content: shortText(MAX_TEXT),
  status: z.enum(["done", "stopped", "error"]),
  metrics: metricsSchema.nullable(),
  error: runErrorSchema.nullable(),
});

export const labelScoreSchema = z.strictObject({ label: shortText(500), score: z.number().min(0).max(1) });

/** Bytes of a task's answer as JSON; a larger one is not a file Modelyard wrote. */
export const MAX_OUTPUT_JSON = 1_000_000;

/**
 * A task's answer as the provider gave it (entities, an answer span, candidates, a vector...). The
 * widgets' renderers check its shape before drawing it and show anything else as JSON text, so
 * the schema bounds only its size.
 */
const taskOutput = z.unknown().refine((v) => {
  try {
    const json = JSON.stringify(v);
    return typeof json === "string" && json.length <= MAX_OUTPUT_JSON;
  } catch {
    return false;
  }
}, `is not JSON of at most ${MAX_OUTPUT_JSON} bytes`);

/**
 * One run of a non-chat task: its output as the page drew it, or its error. A generated image,
 * clip or video is kept by its type and size only: its bytes are not in the file.
 */
export const taskResultSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("media"), contentType: shortText(200).min(1), bytes: count, metrics: metricsSchema }),
  z.strictObject({ kind: z.literal("label-scores"), items: z.array(labelScoreSchema).max(1_000), metrics: metricsSchema }),
  z.strictObject({ kind: z.literal("output"), output: taskOutput, metrics: metricsSchema }),
  z.strictObject({ kind: z.literal("error"), error: runErrorSchema }),
]);

export const snippetSchema = z.strictObject({
  language: z.enum(["js", "python", "sh"]),
  client: shortText(80),
  code: shortText(20_000),
});

export const sessionColumnSchema = z.strictObject({
  modelId: modelIdSchema,
  /** A provider name, or `endpoint:<name>` for a configured endpoint. */
  route: routeSchema,
  /** This column's parameter overrides, on top of the session's shared parameters. */
  parameters,
  snippet: snippetSchema.nullable(),
  /** Chat: this column's conversation (the user turns are the shared input, replies its own). */
  turns: z.array(turnSchema).max(400),
  /** Other tasks: the last result. */
  result: taskResultSchema.nullable(),
});

export const sessionInputSchema = z.strictObject({
  /** The shared text input (non-chat tasks), or the empty string. */
  text: shortText(MAX_TEXT),
  /** The name of the image or file that was sent; the bytes are not kept in the file. */
  fileName: shortText(300).nullable(),
  /** Tasks with more than one input: QA's context, zero-shot's candidate labels, the sentences compared. */
  context: shortText(MAX_TEXT).optional(),
  candidateLabels: z.array(shortText(500)).max(100).optional(),
  sentences: z.array(shortText(10_000)).max(100).optional(),
  /** Tabular tasks and table QA: the table sent, header row first. */
  table: z.array(z.array(shortText(2_000)).max(100)).max(1_000).optional(),
});

export const sessionSchema = z.strictObject({
  $schema: z.literal(SESSION_SCHEMA_PATH).optional(),
  kind: z.literal("modelyard-session"),
  schemaVersion: z.literal(SESSION_SCHEMA_VERSION),
  modelyardVersion: shortText(40).min(1),
  /** When the file was saved (ISO 8601). */
  savedAt: z.iso.datetime(),
  /** Where it was saved: a comparison, or the playground's chat. */
  source: z.enum(["compare", "playground"]),
  task: shortText(80).min(1),
  /** Chat: the system prompt. */
  system: shortText(MAX_TEXT),
  /** Shared by every column unless a column overrides them. */
  parameters,
  input: sessionInputSchema,
  columns: z.array(sessionColumnSchema).min(1, "has no columns").max(6, "has more than 6 columns"),
});

export type Session = z.infer<typeof sessionSchema>;
export type SessionColumn = z.infer<typeof sessionColumnSchema>;
export type SessionTurn = z.infer<typeof turnSchema>;
export type SessionMetrics = z.infer<typeof metricsSchema>;
export type SessionRunError = z.infer<typeof runErrorSchema>;
export type TaskResult = z.infer<typeof taskResultSchema>;

/** The published JSON Schema, derived from the zod schema (what it accepts as input). */
export function sessionJsonSchema(origin = ""): Record<string, unknown> {
  return {
    ...z.toJSONSchema(sessionSchema, { target: "draft-2020-12", io: "input" }),
    $id: `${origin}${SESSION_SCHEMA_PATH}`,
    title: "Modelyard session, version 1",
    description: "A comparison or playground chat saved by Modelyard: task, columns, inputs with outputs, parameters, metrics and a code snippet per column. It never holds a token.",
  };
}
