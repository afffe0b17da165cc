import { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";
import type { ChatTemplateSource } from "#app/catalog/model-record.ts";
import { selectTemplate } from "#app/chat-template/render.ts";
import type { RenderChatTemplateResult, RenderErrorKind } from "#app/chat-template/render-types.ts";

export const RENDER_REQUEST_LIMITS = {
  templateBytes: 256 * 1024,
  messages: 500,
  contentChars: 200_000,
  tools: 128,
  tokenChars: 1000,
} as const;

const utf8Bytes = (value: string) => new TextEncoder().encode(value).length;

const messageSchema = z.looseObject({
  role: z.string({ error: "must be a string" }).min(1, "must not be empty").max(64, "is longer than 64 characters"),
  content: z
    .union([z.string().max(RENDER_REQUEST_LIMITS.contentChars), z.array(z.unknown()).max(1000), z.null()], {
      error: "must be a string, an array of content parts, or null",
    })
    .optional(),
  tool_calls: z.array(z.record(z.string(), z.unknown()), { error: "must be an array of objects" }).max(128).optional(),
  tool_call_id: z.string({ error: "must be a string" }).max(256).optional(),
  name: z.string({ error: "must be a string" }).max(256).optional(),
});

const tokenSchema = z.string({ error: "must be a string or null" }).max(RENDER_REQUEST_LIMITS.tokenChars).nullable().optional();

/** Body of POST /api/chat-template/render. Exactly one of `template` and `model`. */
export const renderRequestSchema = z
  .strictObject(
    {
      template: z
        .string({ error: "must be a string" })
        .min(1, "must not be empty")
        .refine((value) => utf8Bytes(value) <= RENDER_REQUEST_LIMITS.templateBytes, {
          message: `is larger than ${RENDER_REQUEST_LIMITS.templateBytes} bytes`,
        })
        .optional(),
      model: modelIdSchema.optional(),
      messages: z
        .array(messageSchema, { error: "must be an array of messages" })
        .max(RENDER_REQUEST_LIMITS.messages, `must hold at most ${RENDER_REQUEST_LIMITS.messages} messages`),
      tools: z
        .array(z.record(z.string(), z.unknown()), { error: "must be an array of objects" })
        .max(RENDER_REQUEST_LIMITS.tools)
        .nullable()
        .optional(),
      add_generation_prompt: z.boolean({ error: "must be a boolean" }).optional(),
      bos_token: tokenSchema,
      eos_token: tokenSchema,
      template_name: z.string({ error: "must be a string" }).min(1).max(100).optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field` : "the body must be a JSON object") },
  )
  .superRefine((body, ctx) => {
    if (body.template === undefined && body.model === undefined) {
      ctx.addIssue({ code: "custom", path: ["template"], message: "either template or model is required" });
    }
    if (body.template !== undefined && body.model !== undefined) {
      ctx.addIssue({ code: "custom", path: ["model"], message: "give template or model, not both" });
    }
    if (body.template !== undefined && body.template_name !== undefined) {
      ctx.addIssue({ code: "custom", path: ["template_name"], message: "only applies together with model" });
    }
  });

export type RenderRequest = z.infer<typeof renderRequestSchema>;

export interface ApiFieldError {
  error: { message: string; field: string | null };
}

export interface ApiRenderError {
  error: {
    message: string;
    kind: RenderErrorKind;
    line: number | null;
    column: number | null;
    excerpt: string | null;
    templateName: string | null;
  };
}

/** Too many renders in progress (this client's or everyone's): when to retry, also sent as Retry-After. */
export interface ApiBusyError {
  error: { message: string; field: null; retryAfterSeconds: number };
}

export type RenderApiResponse =
  | { status: 200; body: { text: string; templateName: string | null } }
  | { status: 400 | 404 | 503; body: ApiFieldError }
  | { status: 429; body: ApiBusyError }
  | { status: 422; body: ApiRenderError };

/** `messages[2].content` style path for an issue. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Turns a validation failure into the 400 body: the first problem, naming its field. */
export function zodErrorToBody(error: z.ZodError): ApiFieldError {
  const issue = error.issues[0];
  if (!issue) return { error: { message: "Invalid request body", field: null } };
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const path = keys.length > 0 ? [...issue.path, keys[0] ?? ""] : issue.path;
  const field = path.length > 0 ? formatPath(path) : null;
  return { error: { message: field ? `${field}: ${issue.message}` : issue.message, field } };
}

export interface ModelTemplateRecord {
  chatTemplate: ChatTemplateSource | null;
  bosToken: string | null;
  eosToken: string | null;
}

export type RenderTemplate = (input: {
  template: string;
  messages: unknown[];
  tools: unknown[] | null;
  addGenerationPrompt: boolean;
  bosToken: string | null;
  eosToken: string | null;
}) => Promise<RenderChatTemplateResult>;

/**
 * The logic of POST /api/chat-template/render, independent of the HTTP framework. `render` is the
 * sandbox (`(input) => getChatTemplateSandbox().render(input)` on the server).
 */
export async function renderForApi(
  body: unknown,
  lookupModelTemplate: (modelId: string) => Promise<ModelTemplateRecord | null>,
  render: RenderTemplate,
): Promise<RenderApiResponse> {
  const parsed = renderRequestSchema.safeParse(body);
  if (!parsed.success) return { status: 400, body: zodErrorToBody(parsed.error) };
  const request = parsed.data;

  let template: string;
  let templateName: string | null = null;
  let bosToken = request.bos_token ?? null;
  let eosToken = request.eos_token ?? null;
  if (request.template !== undefined) {
    template = request.template;
  } else {
    const modelId = request.model ?? "";
    const record = await lookupModelTemplate(modelId);
    if (!record) return { status: 404, body: { error: { message: `Model ${modelId} not found`, field: "model" } } };
    if (!record.chatTemplate) {
      return { status: 404, body: { error: { message: `This catalogue has no chat template for model ${modelId}`, field: "model" } } };
    }
    const selected = selectTemplate(record.chatTemplate, request.template_name, { hasTools: Boolean(request.tools) });
    if (!selected.ok) {
      const field = request.template_name !== undefined ? "template_name" : "model";
      return { status: 400, body: { error: { message: selected.message, field } } };
    }
    template = selected.template;
    templateName = selected.name;
    // Request tokens override the model's, including an explicit null.
    if (request.bos_token === undefined) bosToken = record.bosToken;
    if (request.eos_token === undefined) eosToken = record.eosToken;
  }

  const result = await render({
    template,
    messages: request.messages,
    tools: request.tools ?? null,
    addGenerationPrompt: request.add_generation_prompt ?? false,
    bosToken,
    eosToken,
  });
  if (result.ok) return { status: 200, body: { text: result.text, templateName } };
  if (result.error.kind === "busy") {
    const retryAfterSeconds = result.error.retryAfterSeconds ?? 1;
    const message = `${result.error.message}. Retry after ${retryAfterSeconds} s (see the Retry-After header).`;
    return { status: 429, body: { error: { message, field: null, retryAfterSeconds } } };
  }
  if (result.error.kind === "unavailable") {
    return { status: 503, body: { error: { message: result.error.message, field: null } } };
  }
  return { status: 422, body: { error: { ...result.error, templateName } } };
}
