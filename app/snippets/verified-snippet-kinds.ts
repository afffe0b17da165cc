// Snippet kinds (provider x task x language x client) that have been EXECUTED and returned a
// well-formed answer: the snippets @huggingface/inference 3.13.1 generates (snippets.getInferenceSnippets),
// with the page's corrections (snippet-corrections.ts) and otherwise unchanged, as the model page
// shows them, were run in Node (JS) and bash (curl) against the provider simulator in
// tests/simulators/, with upstream hosts mapped to it. tests/snippets-run/snippets-run.test.ts
// fails if this list names a kind that was not executed and verified, or misses one that was.
// Python snippets are not listed: huggingface_hub and openai for Python are not installable here.

export type SnippetLanguage = "js" | "sh" | "python";
export type SnippetClient = "fetch" | "huggingface.js" | "openai" | "curl" | "huggingface_hub" | "requests" | "fal_client";
/** hf-token: the snippet was generated with an hf_ token (routed through router.huggingface.co); provider-key: direct to the provider. */
export type SnippetAuth = "hf-token" | "provider-key";

export interface VerifiedSnippetKind {
  provider: string;
  /** "conversational" for chat snippets, otherwise the pipeline tag. */
  task: string;
  streaming: boolean;
  language: SnippetLanguage;
  client: SnippetClient;
  auth: SnippetAuth;
}

const CHAT_PROVIDERS = ["together", "groq", "fireworks-ai", "nebius", "sambanova", "cerebras", "novita", "hf-inference", "cohere"] as const;
const CHAT_CLIENTS: ReadonlyArray<readonly [SnippetLanguage, SnippetClient]> = [
  ["js", "huggingface.js"],
  ["js", "openai"],
  ["sh", "curl"],
];

function kinds(provider: string, task: string, clients: ReadonlyArray<readonly [SnippetLanguage, SnippetClient]>, streaming = false, auth: SnippetAuth = "hf-token"): VerifiedSnippetKind[] {
  return clients.map(([language, client]) => ({ provider, task, streaming, language, client, auth }));
}

const FETCH_HFJS_CURL: ReadonlyArray<readonly [SnippetLanguage, SnippetClient]> = [
  ["js", "fetch"],
  ["js", "huggingface.js"],
  ["sh", "curl"],
];

export const VERIFIED_SNIPPET_KINDS: readonly VerifiedSnippetKind[] = [
  ...CHAT_PROVIDERS.flatMap((provider) => [
    ...kinds(provider, "conversational", CHAT_CLIENTS, false),
    ...kinds(provider, "conversational", CHAT_CLIENTS, true),
  ]),
  ...kinds("together", "conversational", CHAT_CLIENTS, false, "provider-key"),
  ...kinds("together", "conversational", CHAT_CLIENTS, true, "provider-key"),
  ...kinds("hf-inference", "text-classification", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "token-classification", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "fill-mask", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "summarization", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "feature-extraction", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "image-classification", FETCH_HFJS_CURL),
  ...kinds("hf-inference", "text-to-image", [["js", "fetch"], ["js", "huggingface.js"]]),
  ...kinds("hf-inference", "automatic-speech-recognition", FETCH_HFJS_CURL),
  ...kinds("fal-ai", "automatic-speech-recognition", [["js", "fetch"]]),
  ...kinds("fal-ai", "text-to-image", [["js", "huggingface.js"]]),
  ...kinds("fal-ai", "text-to-video", [["js", "huggingface.js"]]),
  ...kinds("replicate", "text-to-image", [["js", "huggingface.js"]]),
  ...kinds("replicate", "text-to-video", [["js", "huggingface.js"]]),
];

export function snippetKindKey(kind: VerifiedSnippetKind): string {
  return [kind.provider, kind.task, kind.streaming ? "stream" : "no-stream", kind.language, kind.client, kind.auth].join("|");
}

const VERIFIED_KEYS = new Set(VERIFIED_SNIPPET_KINDS.map(snippetKindKey));

export function isVerifiedSnippetKind(kind: VerifiedSnippetKind): boolean {
  return VERIFIED_KEYS.has(snippetKindKey(kind));
}
