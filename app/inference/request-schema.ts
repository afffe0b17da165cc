/**
 * The body of POST /api/inference. Field names follow @huggingface/inference's own argument names
 * so a body reads like a library call; `endpoint` names an admin-configured server (never a URL).
 */
import { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";

/**
 * A model given as a URL gets its own answer, which says what to do instead, as the library's own
 * did ("Model URLs are no longer supported. Use endpointUrl instead."): here that is a configured
 * endpoint, named in `endpoint`. Anything else is checked against the Hub's id grammar.
 */
const requestModelSchema = z
  .string({ error: "model id must be a string" })
  .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v.trim()), {
    message:
      "model id must look like 'org/name', not a URL. A model on a server of your own runs through a configured endpoint: send \"endpoint\": \"<name>\" (an admin lists endpoints in MODELYARD_ENDPOINTS)",
    abort: true,
  })
  .pipe(modelIdSchema);

const contentPart = z.union([
  z.strictObject({ type: z.literal("text"), text: z.string().max(200_000) }),
  // `detail` is OpenAI's resolution hint; messages reach the provider as sent, so it goes along.
  z.strictObject({ type: z.literal("image_url"), image_url: z.strictObject({ url: z.string().max(8_000_000), detail: z.enum(["auto", "low", "high"]).optional() }) }),
]);

const toolCall = z.object({
  id: z.string().max(200),
  type: z.literal("function"),
  function: z.object({ name: z.string().max(200), arguments: z.string().max(200_000) }),
});

export const chatMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  // An assistant turn that only calls tools has no content (null in OpenAI's own messages).
  content: z.union([z.string().max(200_000), z.array(contentPart).max(64), z.null()]),
  name: z.string().max(200).optional(),
  tool_calls: z.array(toolCall).max(64).optional(),
  tool_call_id: z.string().max(200).optional(),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const inferenceRequestSchema = z.strictObject({
  // The Hub's grammar: no URL, path or '..' ever reaches a Hub lookup or a provider.
  model: requestModelSchema.optional(),
  task: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9-]+$/, "task ids are lower-case words joined by dashes, e.g. text-classification")
    .optional(),
  provider: z.string().trim().min(1).max(100).optional(),
  endpoint: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, "an endpoint is named by its configured name (letters, digits, . _ -), never by a URL")
    .optional(),
  inputs: z.unknown().optional(),
  messages: z.array(chatMessageSchema).min(1).max(500).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  stream: z.boolean().optional(),
  billTo: z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._-]+$/, "billTo is an organisation name").optional(),
});

export type InferenceRequest = z.infer<typeof inferenceRequestSchema>;

/** Zod issues as short "path: message" lines for the 400 body. */
export function describeIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join(".") || "(body)", message: issue.message }));
}
