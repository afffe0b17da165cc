/**
 * The inference snippets panel of a model page, built on the server (highlighted with shiki) from
 * the URL's ?provider=&stream=1&bill_to=&lang= so it works without JavaScript; the page's script
 * fetches the same view from /api/snippets to update in place.
 */
import { z } from "zod";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import {
  getInferenceSnippetsFor,
  SnippetInputError,
  taskParametersSchema,
  TOKEN_PLACEHOLDER,
} from "#app/snippets/inference-snippets.ts";
import type { VisitorParameters } from "#app/snippets/visitor-parameters.ts";
import { snippetTaskFor, supportedProvidersFor, stagingProvidersFor } from "#app/snippets/providers.ts";
import { isVerifiedSnippetKind, type SnippetClient, type SnippetLanguage } from "#app/snippets/verified-snippet-kinds.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { isOpenAiSnippetTask, openAiCompatibleSnippets } from "#app/snippets/openai-compatible-snippets.ts";

/** Language tabs in the order the page shows them; "v1" is this server's OpenAI-compatible API. */
export const PANEL_LANGUAGES = ["js", "python", "sh", "v1"] as const;
export type PanelLanguage = (typeof PANEL_LANGUAGES)[number];

const GRAMMAR: Record<Exclude<PanelLanguage, "v1">, string> = { js: "javascript", python: "python", sh: "shellscript" };
const LABEL: Record<PanelLanguage, string> = { js: "JavaScript", python: "Python", sh: "Shell", v1: "OpenAI-compatible (this server)" };

/** Where this server's /v1 is, as the code should name it: MODELYARD_PUBLIC_URL, else the request's origin. */
export function snippetOrigin(requestUrl: string): string {
  return (getEnv().MODELYARD_PUBLIC_URL ?? new URL(requestUrl).origin).replace(/\/+$/, "");
}

export interface InferenceState {
  provider: string;
  streaming: boolean;
  billTo: string;
  lang: PanelLanguage;
}

export interface InferencePanel {
  modelId: string;
  task: string | null;
  conversational: boolean;
  providers: string[];
  /** Of those, the ones mapped as staging, labelled so. */
  staging: string[];
  state: InferenceState;
  languages: Array<{
    language: PanelLanguage;
    label: string;
    clients: Array<{ client: string; label: string; text: string; html: string; verified: boolean }>;
  }>;
  /** The library could not generate code for this combination. */
  error: string | null;
  /** Something in the query was not usable and was ignored. */
  inputError: string | null;
  placeholder: string;
  /** What stands for the mask token in the code when the catalogue does not know it; null when the code has the real one. */
  maskTokenPlaceholder: string | null;
  /** The demo's inputs and parameters the code was written for, so the panel's own refetch keeps them. */
  follows: FollowedRequest;
}

/** What a demo on the same page set, for the snippets to carry (GET /api/snippets' inputs= and parameters=). */
export interface FollowedRequest {
  /** A widget's text, for tasks whose input is one text. */
  inputs?: string;
  /** A task widget's parameters (never a chat's: those go through the library as chat settings). */
  parameters?: VisitorParameters;
}

const followedQuerySchema = z.object({
  inputs: z.string().min(1, "must not be empty").max(4_000, "must be at most 4,000 characters").optional(),
  parameters: z
    .string()
    .max(8_000, "must be at most 8,000 characters")
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object" });
        return z.NEVER;
      }
    })
    .pipe(taskParametersSchema)
    .optional(),
});

/**
 * The inputs= and parameters= (a JSON object) of a snippets query, checked with zod; `field`
 * names the query parameter (or `parameters.<name>`) that failed.
 */
export function parseFollowedRequest(params: URLSearchParams): { ok: true; follows: FollowedRequest } | { ok: false; field: string; message: string } {
  const raw = { inputs: params.get("inputs") ?? undefined, parameters: params.get("parameters") ?? undefined };
  const parsed = followedQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? issue.path.map(String).join(".") || "parameters" : "parameters";
    return { ok: false, field, message: `Query parameter '${field}' ${issue?.message ?? "is not valid"}.` };
  }
  return {
    ok: true,
    follows: {
      ...(parsed.data.inputs !== undefined ? { inputs: parsed.data.inputs } : {}),
      ...(parsed.data.parameters !== undefined && Object.keys(parsed.data.parameters).length > 0 ? { parameters: parsed.data.parameters } : {}),
    },
  };
}

function isPanelLanguage(v: string): v is PanelLanguage {
  return (PANEL_LANGUAGES as readonly string[]).includes(v);
}

/** Reads the panel's state from a query string; unusable values fall back to defaults and are reported. */
export function parseInferenceState(
  params: URLSearchParams,
  model: CatalogModel,
): { state: InferenceState; inputError: string | null; inputFields: string[] } {
  const offered = supportedProvidersFor(model);
  const problems: string[] = [];
  // The query parameters behind `problems`, so the JSON API can name them.
  const inputFields: string[] = [];
  const asked = params.get("provider");
  let provider: string = offered[0] ?? "auto";
  if (asked !== null && asked !== "") {
    if (offered.includes(asked as (typeof offered)[number])) provider = asked;
    else {
      problems.push(`Provider "${asked.slice(0, 60)}" is not available for this model.`);
      inputFields.push("provider");
    }
  }
  const lang = params.get("lang") ?? "js";
  const billTo = (params.get("bill_to") ?? "").trim();
  if (billTo !== "" && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/.test(billTo)) {
    problems.push("Bill to must be a user or organisation name.");
    inputFields.push("bill_to");
  }
  if (!isPanelLanguage(lang)) {
    problems.push(`Unknown language "${lang.slice(0, 20)}".`);
    inputFields.push("lang");
  }
  const stream = params.get("stream");
  return {
    state: {
      provider,
      streaming: snippetTaskFor(model) === "conversational" && (stream === "1" || stream === "true" || stream === "on"),
      billTo: problems.some((p) => p.startsWith("Bill to")) ? "" : billTo,
      lang: isPanelLanguage(lang) ? lang : "js",
    },
    inputError: problems.length ? problems.join(" ") : null,
    inputFields,
  };
}

/**
 * The panel for the parsed state; `follows` is what a demo on the page set: a widget's text,
 * printed where the library prints its example input, and its parameters, written into each client.
 */
export function buildInferencePanel(
  model: CatalogModel,
  parsed: { state: InferenceState; inputError: string | null },
  follows: FollowedRequest = {},
  /** This server's origin, for the "OpenAI-compatible (this server)" tab; without it the tab is left out. */
  origin: string | null = null,
): InferencePanel {
  const { state } = parsed;
  const task = snippetTaskFor(model);
  const panel: InferencePanel = {
    modelId: model.id,
    task,
    conversational: task === "conversational",
    providers: supportedProvidersFor(model),
    staging: stagingProvidersFor(model),
    state,
    languages: [],
    error: null,
    inputError: parsed.inputError,
    placeholder: TOKEN_PLACEHOLDER,
    maskTokenPlaceholder: null,
    follows,
  };
  let result;
  try {
    result = getInferenceSnippetsFor(model, {
      provider: state.provider,
      streaming: state.streaming,
      ...(state.billTo ? { billTo: state.billTo } : {}),
      ...(follows.inputs !== undefined ? { inputs: follows.inputs } : {}),
      ...(follows.parameters !== undefined ? { taskParameters: follows.parameters } : {}),
    });
  } catch (error) {
    if (error instanceof SnippetInputError) return { ...panel, error: error.message };
    throw error;
  }
  panel.error = result.error ?? null;
  panel.maskTokenPlaceholder = result.maskTokenPlaceholder ?? null;
  panel.languages = PANEL_LANGUAGES.flatMap((language): InferencePanel["languages"] => {
    if (language === "v1") {
      if (origin === null || !isOpenAiSnippetTask(task)) return [];
      const provider = state.provider === "auto" ? "" : `:${state.provider.replace(/^endpoint:/, "")}`;
      const snippets = openAiCompatibleSnippets({ task, model: `${model.id}${provider}`, origin, streaming: state.streaming });
      return [{ language, label: LABEL.v1, clients: snippets.map((c) => ({ client: c.client, label: c.label, text: c.content, html: highlightCode(c.content, c.grammar), verified: false })) }];
    }
    const group = result.languages.find((l) => l.language === language);
    if (!group) return [];
    return [
      {
        language,
        label: LABEL[language],
        clients: group.clients.map((c) => ({
          client: c.client,
          label: c.label,
          text: c.content,
          html: highlightCode(c.content, GRAMMAR[language]),
          // The kinds were run as the library writes them; code carrying a widget's parameters was not.
          verified:
            follows.parameters === undefined &&
            task !== null &&
            isVerifiedSnippetKind({
              provider: state.provider,
              task,
              streaming: state.streaming,
              language: language satisfies SnippetLanguage,
              client: c.client as SnippetClient,
              auth: "hf-token",
            }),
        })),
      },
    ];
  });
  return panel;
}
