/**
 * Inference snippets panel: the code @huggingface/inference 3.13.1 generates for a model and
 * provider, grouped by language, with the text exactly as the library returns it except where it
 * cannot work as printed (snippet-corrections.ts).
 *
 * Token handling: the library prints whatever access token it is given. Without a visitor token we
 * give it TOKEN_PLACEHOLDER ("hf_***"), so the placeholder appears where the library would put a
 * token and nothing else in the text changes; it also starts with "hf_", so the library routes the
 * request through the Hugging Face router exactly as it would for a real HF token. With a saved
 * token the text carries the real token; show it through `maskToken` until the visitor reveals
 * it, and copy the unmasked text only on an explicit "copy with token".
 */
import type { InferenceProviderOrPolicy } from "@huggingface/inference";
import { snippets } from "@huggingface/inference";
import type { InferenceSnippet, InferenceSnippetLanguage, WidgetType } from "@huggingface/tasks";
import { getModelInputSnippet, inferenceSnippetLanguages } from "@huggingface/tasks";
import { z } from "zod";
import type { CatalogModel, ProviderMapping } from "#app/catalog/model-record.ts";
import { MASK_TOKEN_PLACEHOLDER } from "#app/snippets/mask-token-note.tsx";
import { isPipelineType, toModelData } from "#app/snippets/model-data.ts";
import { correctSnippets } from "#app/snippets/snippet-corrections.ts";
import { type VisitorParameters, withVisitorParameters } from "#app/snippets/visitor-parameters.ts";
import {
  AUTO_POLICY,
  isProviderOrPolicy,
  snippetTaskFor,
  supportedMappings,
  supportedProvidersFor,
} from "#app/snippets/providers.ts";

export const TOKEN_PLACEHOLDER = "hf_***";

export type LibraryProviderMapping = NonNullable<Parameters<typeof snippets.getInferenceSnippets>[3]>;

export interface SnippetClient {
  client: string;
  label: string;
  content: string;
}

export interface SnippetLanguage {
  language: InferenceSnippetLanguage;
  label: string;
  clients: SnippetClient[];
}

export interface InferenceSnippetsResult {
  provider: InferenceProviderOrPolicy;
  /** In the library's order (python, js, sh); languages without any client are left out. */
  languages: SnippetLanguage[];
  /** Set when the library itself failed for this model and provider. */
  error?: string;
  /** Set when the code carries MASK_TOKEN_PLACEHOLDER: the catalogue does not know the model's mask token. */
  maskTokenPlaceholder?: string;
}

export interface InferenceSnippetOptions {
  provider: string;
  streaming?: boolean;
  billTo?: string;
  accessToken?: string;
  /**
   * Chat settings the library puts in the request body: messages, temperature, max_tokens, top_p.
   * 3.13.1 reads them for conversational models only and drops falsy numbers (temperature 0).
   */
  parameters?: Record<string, unknown>;
  /**
   * A visitor's text for a task whose input is one string (a widget's input): it replaces the
   * library's example input wherever the library printed it.
   */
  inputs?: string;
  /**
   * A task widget's parameters for a non-chat task (the spec's names, as the widget sends them):
   * written into every client's code in the form it accepts (visitor-parameters.ts).
   */
  taskParameters?: VisitorParameters;
}

/** Bad input from the page or an API caller; routes turn it into a 400. */
export class SnippetInputError extends Error {
  override name = "SnippetInputError";
}

const LANGUAGE_LABELS: Record<InferenceSnippetLanguage, string> = {
  python: "Python",
  js: "JavaScript",
  sh: "Shell",
};

const CLIENT_LABELS: Readonly<Record<string, string>> = {
  huggingface_hub: "huggingface_hub",
  fal_client: "fal_client",
  requests: "requests",
  openai: "openai",
  fetch: "fetch",
  "huggingface.js": "huggingface.js",
  curl: "cURL",
};

// The token and bill-to name are pasted into code; anything outside these characters could break
// out of the string literal it lands in.
const accessTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{8,512}$/, "accessToken must be 8-512 letters, digits or _ . : -");
const billToSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/, "billTo must be a user or organisation name");

const messageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});

const parametersSchema = z.looseObject({
  messages: z.array(messageSchema).min(1).optional(),
  temperature: z.number().min(0).max(100).optional(),
  max_tokens: z.number().int().positive().optional(),
  top_p: z.number().min(0).max(1).optional(),
});

/**
 * Names become Python keywords and JS keys, values literals in code: identifiers and plain JSON
 * values only, as the widget's parameter form produces them.
 */
export const taskParametersSchema = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "parameter names must be identifiers"),
    z.union([z.string().max(1_000), z.number().finite(), z.boolean(), z.array(z.string().max(1_000)).max(100)]),
  )
  .refine((r) => Object.keys(r).length <= 32, "at most 32 parameters");

const optionsSchema = z.object({
  provider: z.string(),
  streaming: z.boolean().optional(),
  billTo: billToSchema.optional(),
  accessToken: accessTokenSchema.optional(),
  parameters: parametersSchema.optional(),
  inputs: z.string().min(1).max(4_000).optional(),
  taskParameters: taskParametersSchema.optional(),
});

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid snippet options";
  const path = issue.path.join(".");
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}

function isWidgetType(task: string): task is WidgetType {
  return task === "conversational" || isPipelineType(task);
}

/** The catalogue's mapping row in the shape 3.13.1's snippet generator takes. */
export function toLibraryMapping(model: CatalogModel, mapping: ProviderMapping): LibraryProviderMapping {
  if (!isWidgetType(mapping.task)) {
    throw new SnippetInputError(`Provider mapping for ${mapping.provider} has an unknown task "${mapping.task}"`);
  }
  const converted: LibraryProviderMapping = {
    hfModelId: model.id,
    providerId: mapping.providerId,
    task: mapping.task,
    // Status is often unrecorded (null). The snippet generator never reads it; only the live
    // request path warns on "staging".
    status: mapping.status ?? "live",
  };
  if (mapping.adapter !== null) converted.adapter = mapping.adapter;
  if (mapping.adapterWeightsPath !== null) converted.adapterWeightsPath = mapping.adapterWeightsPath;
  return converted;
}

export function groupSnippets(list: InferenceSnippet[]): SnippetLanguage[] {
  return inferenceSnippetLanguages
    .map((language) => ({
      language,
      label: LANGUAGE_LABELS[language],
      clients: list
        .filter((snippet) => snippet.language === language)
        .map((snippet) => ({
          client: snippet.client,
          label: CLIENT_LABELS[snippet.client] ?? snippet.client,
          content: snippet.content,
        })),
    }))
    .filter((group) => group.clients.length > 0);
}

export function getInferenceSnippetsFor(model: CatalogModel, options: InferenceSnippetOptions): InferenceSnippetsResult {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new SnippetInputError(firstIssue(parsed.error));
  const { provider, streaming, billTo, accessToken, parameters, inputs, taskParameters } = parsed.data;
  if (!isProviderOrPolicy(provider)) {
    throw new SnippetInputError(`Provider "${provider}" is not supported by @huggingface/inference 3.13.1`);
  }
  if (!supportedProvidersFor(model).includes(provider)) {
    const mapped = supportedMappings(model).some((candidate) => candidate.provider === provider);
    throw new SnippetInputError(
      mapped
        ? `@huggingface/inference 3.13.1 has no ${snippetTaskFor(model) ?? "(no task)"} snippets for provider "${provider}"`
        : `Provider "${provider}" does not serve ${model.id}`,
    );
  }
  let mapping: LibraryProviderMapping | undefined;
  if (provider !== AUTO_POLICY) {
    const row = supportedMappings(model).find((candidate) => candidate.provider === provider);
    if (row === undefined) throw new SnippetInputError(`Provider "${provider}" does not serve ${model.id}`);
    mapping = toLibraryMapping(model, row);
  }

  // Chat settings first, so they can never override the panel's own streaming and billTo.
  const libraryOptions: Record<string, unknown> = { ...parameters, streaming: streaming ?? false };
  if (billTo !== undefined) libraryOptions.billTo = billTo;

  const task = snippetTaskFor(model);
  const known = toModelData(model);
  // The library prints `mask_token` into the fill-mask example as is, "undefined" included.
  const modelData = task === "fill-mask" && known.mask_token === undefined ? { ...known, mask_token: MASK_TOKEN_PLACEHOLDER } : known;
  if (taskParameters !== undefined && task === "conversational") throw new SnippetInputError("taskParameters: chat snippets take their settings as parameters");
  // 3.13.1's text-generation generator keeps the chat template once it has written one chat
  // snippet (it reassigns `templateName` in its closure), so every later plain text-generation
  // model would get chat code. Chat snippets of text-generation models are asked of the
  // image-text-to-text generator instead, whose template is chat already, with the model's own
  // example messages: the text is the same, and the text-generation generator stays as shipped.
  let libraryModel = modelData;
  if (task === "conversational" && modelData.pipeline_tag === "text-generation") {
    libraryModel = { ...modelData, pipeline_tag: "image-text-to-text" };
    libraryOptions.messages ??= getModelInputSnippet(modelData);
  }
  let list: InferenceSnippet[];
  try {
    list = snippets.getInferenceSnippets(libraryModel, accessToken ?? TOKEN_PLACEHOLDER, provider, mapping, libraryOptions);
  } catch (error) {
    // e.g. 3.13.1 refuses HF tokens (the placeholder included) for the "openai" provider.
    return { provider, languages: [], error: error instanceof Error ? error.message : String(error) };
  }
  list = correctSnippets(list, task, provider);
  if (inputs !== undefined && task !== null && TEXT_INPUT_TASKS.has(task)) {
    const example = getModelInputSnippet(modelData);
    if (typeof example === "string") list = list.map((s) => ({ ...s, content: withVisitorInput(s.content, s.language, example, inputs) }));
  }
  if (taskParameters !== undefined) {
    list = list.map((s) => ({ ...s, content: withVisitorParameters(s.content, s.language, s.client, taskParameters) }));
  }
  // A visitor's own text replaces the example, placeholder and all.
  const placeholder = list.some((s) => s.content.includes(MASK_TOKEN_PLACEHOLDER));
  return { provider, languages: groupSnippets(list), ...(placeholder ? { maskTokenPlaceholder: MASK_TOKEN_PLACEHOLDER } : {}) };
}

/** Tasks whose whole input is one text, so a widget's text can stand where the library prints its example. */
const TEXT_INPUT_TASKS: ReadonlySet<string> = new Set([
  "text-classification",
  "token-classification",
  "fill-mask",
  "summarization",
  "translation",
  "feature-extraction",
  "text-generation",
  "zero-shot-classification",
  "text-to-image",
  "text-to-speech",
  "text-to-video",
  "text-to-audio",
]);

/**
 * The library's code with the visitor's text where it printed its example input. 3.13.1 prints
 * a one-string input as the example's JSON literal, and in some templates (cURL, fetch for media
 * tasks) JSON-encodes that literal once more; both forms are replaced in kind (inside cURL's
 * single quotes, shell-quoted), so the code reads as the library would have written it for this
 * text. An example not found is left as is.
 */
export function withVisitorInput(code: string, language: InferenceSnippetLanguage, example: string, text: string): string {
  if (!/^".*"$/s.test(example)) return code;
  const literal = JSON.stringify(text);
  const encoded = (s: string) => JSON.stringify(s).slice(1, -1);
  const quoted = language === "sh" ? (s: string) => s.replaceAll("'", "'\\''") : (s: string) => s;
  return code.split(quoted(encoded(example))).join(quoted(encoded(literal))).split(quoted(example)).join(quoted(literal));
}

/** What to show for a token while it is hidden: the first three characters, then asterisks. */
export function maskedTokenValue(token: string): string {
  if (token.length <= 8) return "*".repeat(token.length);
  return token.slice(0, 3) + "*".repeat(token.length - 3);
}

/** The text with every occurrence of the token hidden; nothing else changes. */
export function maskToken(text: string, token: string | undefined): string {
  if (token === undefined || token === "") return text;
  return text.split(token).join(maskedTokenValue(token));
}

/** The whole panel with the token hidden, for display until the visitor reveals it. */
export function maskSnippets(result: InferenceSnippetsResult, token: string | undefined): InferenceSnippetsResult {
  return {
    ...result,
    languages: result.languages.map((language) => ({
      ...language,
      clients: language.clients.map((client) => ({ ...client, content: maskToken(client.content, token) })),
    })),
  };
}

/** Whether a model page shows the inference panel at all (otherwise it shows the "no provider" note). */
export function hasInferenceProviders(model: CatalogModel): boolean {
  return supportedProvidersFor(model).length > 0;
}
