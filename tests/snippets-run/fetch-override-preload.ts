// Preloaded (node --import) into every JavaScript snippet run against the provider SIMULATOR.
// It is the "placeholder host mapping" for JS: the snippet text is executed unchanged, and every
// global fetch (used by plain fetch snippets, by @huggingface/inference and by the openai client)
// is sent to MODELYARD_UPSTREAM_OVERRIDE with the same method, headers and body. Each response is
// also summarised, one JSON line per fetch, into SNIPPET_FETCH_LOG so the test can check answers
// that a snippet does not print (images, videos).
import { appendFileSync } from "node:fs";
import { sniffMedia } from "../simulators/media.ts";
import { toOverrideUrl } from "../simulators/upstream-override.ts";

const base = process.env["MODELYARD_UPSTREAM_OVERRIDE"];
const logPath = process.env["SNIPPET_FETCH_LOG"];
if (!base) throw new Error("MODELYARD_UPSTREAM_OVERRIDE is not set");

const originalFetch = globalThis.fetch;

function urlOf(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

async function summarise(url: string, method: string, response: Response): Promise<void> {
  if (!logPath) return;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = response.headers.get("content-type");
  let json: unknown = undefined;
  if (contentType?.includes("json")) {
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      json = undefined;
    }
  }
  const text = contentType?.startsWith("text/") ? new TextDecoder().decode(bytes) : undefined;
  appendFileSync(logPath, `${JSON.stringify({ url, method, status: response.status, contentType, size: bytes.length, media: sniffMedia(bytes), json, text })}\n`);
}

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const original = urlOf(input);
  const target = toOverrideUrl(original, base);
  const response = input instanceof Request ? await originalFetch(new Request(target, input), init) : await originalFetch(target, init);
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  // Summarise a copy; the snippet reads the original. Logging failures must not change the snippet's behaviour.
  void summarise(original, method, response.clone()).catch(() => undefined);
  return response;
};
