import type { ReactNode } from "react";
import type { ApiDocs } from "#app/openai-api/api-docs.server.ts";
import { CodeBlock } from "#app/ui/code-block.tsx";
import { SimpleTable } from "#app/ui/simple-table.tsx";

const ROUTES: Array<[string, string, string]> = [
  ["GET", "/v1/models", "Models something here can run, with their providers, status, task and context length where known; created is 0 when the catalogue does not know the model's date."],
  ["GET", "/v1/models/{org}/{name}", "One of them."],
  ["POST", "/v1/chat/completions", "Chat, streamed or not (stream_options.include_usage), with tools, tool_choice, response_format, seed, stop, logprobs and images in messages passed to the provider."],
  ["POST", "/v1/completions", "Text completion for text-generation models. finish_reason is the provider's (\"length\" at max_tokens), or \"stop\" when it gave none, as in a whole answer from an OpenAI-style provider, whose reason @huggingface/inference 3.13.1 does not keep; usage only as the provider counted it."],
  ["POST", "/v1/embeddings", "Embeddings for feature-extraction models, as floats or base64, of strings (token-id arrays are refused). usage is null: the providers count no tokens for embeddings."],
  ["POST", "/v1/images/generations", "Text to image, answered as b64_json (this server stores no images, so it has no URL to give)."],
  ["POST", "/v1/audio/transcriptions", "Speech recognition: multipart with file and model, answered as json or text."],
  ["POST", "/v1/audio/speech", "Text to speech: the audio bytes as the model makes them, typed by their Content-Type. response_format is met only when it names that format (nothing is converted): pcm and aac are refused before any call; another mismatch shows only in the audio, so it is a 400 after that one counted call, naming the format made and the provider that made it."],
];

const ERRORS: Array<[string, string, string]> = [
  ["400", "invalid_request_error", "A field is wrong or not supported here; param names it."],
  ["401", "authentication_error", "No token, or an unknown, revoked or expired one."],
  ["403", "permission_error", "The token lacks the inference scope, or billTo is not allowed."],
  ["404", "not_found_error", "model_not_found: the catalogue lacks the model, or nothing here serves it for that route."],
  ["429", "rate_limit_error", "Your quota or the provider's limit; Retry-After says when to try again."],
  ["502, 503, 504", "api_error", "The provider failed, is loading, or did not answer in time; or (503, code database_unavailable or server_shutting_down, with Retry-After) this server's database is not answering or the server is stopping: send the request again."],
];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** /docs/api: how to point OpenAI's clients at this server, and Hub clients at its catalogue. */
export function ApiDocsPage({ docs }: { docs: ApiDocs }) {
  const base = `${docs.origin}/v1`;
  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-8 text-sm leading-relaxed text-gray-800 dark:text-gray-200">
      <header className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight text-gray-900 dark:text-white">OpenAI-compatible API</h1>
        <p>
          Every tool that speaks OpenAI’s API (the openai SDKs, LangChain, editors, agents, chat UIs) can use this server’s models and providers. Calls go through the same
          gateway as the pages’ demos: the same keys, quotas, cost caps and usage records.
        </p>
      </header>

      <Section id="base" title="Base URL and token">
        <p>
          Base URL: <code className="rounded bg-gray-100 px-1 py-0.5 font-mono dark:bg-gray-800">{base}</code>
        </p>
        <p>
          The API key is a Modelyard API token (it starts with <code className="font-mono">myd_</code>) with the <code className="font-mono">inference</code> scope. Make one on{" "}
          <a href="/settings/tokens" className="font-medium text-indigo-700 underline dark:text-indigo-300">
            Settings → API tokens
          </a>{" "}
          and send it as <code className="font-mono">Authorization: Bearer myd_…</code>, which is what the SDKs do with their API key (they read it from <code className="font-mono">OPENAI_API_KEY</code>). Without one, calls are refused unless the
          admin made the site open. To pay with a provider token of your own instead of the server’s keys, send it in the <code className="font-mono">X-Provider-Token</code> header.
        </p>
      </Section>

      <Section id="models" title="Choosing a model and its provider">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <code className="font-mono">org/name</code>: the admin’s routing policy, here <strong>{docs.routing.policy}</strong>
            {docs.routing.policy === "fastest"
              ? ": the live provider with the lowest median time to first token over the last day’s streamed calls through this server; those without such calls come after, in the catalogue’s order."
              : ": the live providers in the catalogue’s order."}
          </li>
          <li>
            <code className="font-mono">org/name:fastest</code>: the fastest, whatever the policy.
          </li>
          <li>
            <code className="font-mono">org/name:together</code>: that provider alone (a staging provider is used only when named), or that configured endpoint.
          </li>
          <li>The name an admin’s configured endpoint serves a model under (for example an Ollama tag).</li>
        </ul>
        <p>
          When the chosen provider fails before its first byte (5xx or 429 from the provider, or a refused connection), up to {docs.routing.failover} more provider
          {docs.routing.failover === 1 ? "" : "s"} serving the model are tried in turn. A timeout is not retried elsewhere (the deadline is the request’s), nor is a request
          the provider refuses (400). Every answer names who served: in the <code className="font-mono">x-inference-provider</code>{" "}
          header and in <code className="font-mono">model</code> (for example <code className="font-mono">{docs.example}:together</code>), and carries an{" "}
          <code className="font-mono">x-request-id</code>.
        </p>
      </Section>

      <Section id="routes" title="Routes">
        <SimpleTable caption="Routes: table" rows={[["Method", "Path", "What it does"], ...ROUTES]} mono={[0, 1]} nowrap={[1]} />
        <p>Fields the pinned inference library cannot pass to a provider are refused by name with a 400, never dropped silently.</p>
      </Section>

      <Section id="examples" title="Examples">
        {docs.examples.map((e) => (
          <div key={e.id} id={`example-${e.id}`}>
            <CodeBlock html={e.html} text={e.text} title={e.title} copyDescription={`${e.title} example`} />
          </div>
        ))}
      </Section>

      <Section id="errors" title="Errors">
        <p>
          Errors are OpenAI’s error object, <code className="font-mono">{"{error: {message, type, param, code}}"}</code>, so the SDKs raise their typed errors. A failure after a
          stream has started arrives as an event carrying <code className="font-mono">error</code>, which the SDKs raise too.
        </p>
        <SimpleTable caption="Errors: table" rows={[["Status", "type", "When"], ...ERRORS]} mono={[0, 1]} nowrap={[0]} />
      </Section>

      <Section id="hub" title="Hub-compatible catalogue API">
        <p>
          The catalogue answers the Hugging Face Hub’s own model API, read-only, so Hub clients can list and read it: <code className="font-mono">@huggingface/hub</code>’s{" "}
          <code className="font-mono">listModels</code> and <code className="font-mono">modelInfo</code> with <code className="font-mono">hubUrl</code> set to{" "}
          <code className="font-mono">{docs.origin}</code>, and <code className="font-mono">@huggingface/inference</code> reading a model’s providers. Items have the
          Hub’s field names; a field the catalogue does not hold for a model (its downloads, say) is left out, never sent as zero. On a private site, send a Modelyard API
          token with the <code className="font-mono">read</code> scope.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <code className="font-mono">GET /api/models</code>: a page of models, with the parameters below. The next page is the URL in the{" "}
            <code className="font-mono">Link: &lt;…&gt;; rel="next"</code> header, as on the Hub; there is none after the last page.
          </li>
          <li>
            <code className="font-mono">GET /api/models/{"{org}/{name}"}</code> (and <code className="font-mono">…/revision/{"{rev}"}</code>, which answers with the one
            revision the catalogue keeps): one model, or 404 “Repository not found”.
          </li>
          <li>
            <code className="font-mono">GET /api/tasks</code>: the tasks, in the shape of the Hub’s <code className="font-mono">/api/tasks</code>.
          </li>
        </ul>
        <SimpleTable caption="/api/models parameters: table" rows={[["Parameter", "What it takes"], ...docs.hub.parameters.map((p) => [p.name, p.accepts])]} mono={[0]} nowrap={[0]} />
        <p>
          A parameter it cannot use is a 400 naming it, in the Hub’s error shape with two more fields:{" "}
          <code className="font-mono">{"{error, parameter, allowed}"}</code>. Parameters it does not know are ignored.
        </p>
        {docs.hub.examples.map((e) => (
          <div key={e.id} id={`example-${e.id}`}>
            <CodeBlock html={e.html} text={e.text} title={e.title} copyDescription={`${e.title} example for the Hub-compatible API`} />
          </div>
        ))}
      </Section>
    </div>
  );
}
