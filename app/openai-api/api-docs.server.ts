/**
 * The examples on /docs/api, written for this server's own origin and highlighted on the server:
 * the openai SDKs (JavaScript and Python), curl, LangChain (JavaScript and Python) and a chat UI;
 * and, for the Hub-compatible catalogue API, curl and @huggingface/hub.
 */
import { openAiCompatibleSnippets } from "#app/snippets/openai-compatible-snippets.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";

export interface DocExample {
  id: string;
  title: string;
  text: string;
  html: string;
}

export interface ApiDocs {
  origin: string;
  example: string;
  examples: DocExample[];
  routing: { policy: string; failover: number };
  /** The Hub-compatible catalogue API: `/api/models`' parameters and two examples. */
  hub: { parameters: ReadonlyArray<{ name: string; accepts: string }>; examples: DocExample[] };
}

interface RawExample {
  id: string;
  title: string;
  text: string;
  grammar: string;
}

function highlighted(e: RawExample): DocExample {
  return { id: e.id, title: e.title, text: e.text, html: highlightCode(e.text, e.grammar) };
}

/** A chat model the catalogue maps to several providers, for the examples. */
const EXAMPLE_MODEL = "meta-llama/Llama-3.3-70B-Instruct";

/** `hubParameters`: what the catalogue's `/api/models` reads, as that feature words it. */
export function buildApiDocs(origin: string, hubParameters: ApiDocs["hub"]["parameters"]): ApiDocs {
  const env = getEnv();
  const [js, python, curl] = openAiCompatibleSnippets({ task: "conversational", model: EXAMPLE_MODEL, origin, streaming: true });
  const base = `${origin}/v1`;
  const langchainJs = `import { ChatOpenAI } from "@langchain/openai";

// The key is read from OPENAI_API_KEY: a Modelyard API token.
const llm = new ChatOpenAI({
  model: "${EXAMPLE_MODEL}",
  configuration: { baseURL: "${base}" },
});
const answer = await llm.invoke("What is the capital of France?");
console.log(answer.content);`;
  const langchainPython = `from langchain_openai import ChatOpenAI

# The key is read from OPENAI_API_KEY: a Modelyard API token.
llm = ChatOpenAI(model="${EXAMPLE_MODEL}", base_url="${base}")
print(llm.invoke("What is the capital of France?").content)`;
  const chatUi = `# Open WebUI (or any chat UI that takes an OpenAI base URL and key)
OPENAI_API_BASE_URL=${base}
OPENAI_API_KEY=myd_…  # a Modelyard API token with the inference scope`;
  const raw: RawExample[] = [
    { id: "openai-js", title: "openai (JavaScript)", text: js!.content, grammar: "javascript" },
    { id: "openai-python", title: "openai (Python)", text: python!.content, grammar: "python" },
    { id: "curl", title: "curl", text: curl!.content, grammar: "shellscript" },
    { id: "langchain-js", title: "LangChain (JavaScript, @langchain/openai)", text: langchainJs, grammar: "javascript" },
    { id: "langchain-python", title: "LangChain (Python, langchain-openai)", text: langchainPython, grammar: "python" },
    { id: "chat-ui", title: "A chat UI's settings", text: chatUi, grammar: "shellscript" },
  ];
  const hubCurl = `# The 5 most downloaded models whose id holds "llama"
curl -s "${origin}/api/models?search=llama&sort=downloads&limit=5"

# The next page is the URL in the Link header (rel="next")
curl -sI "${origin}/api/models?search=llama&sort=downloads&limit=5" | grep -i '^link'

# One model, with the providers the catalogue maps it to
curl -s "${origin}/api/models/${EXAMPLE_MODEL}?expand=inferenceProviderMapping"`;
  const hubJs = `import { listModels, modelInfo } from "@huggingface/hub";

// This server instead of huggingface.co. On a private Modelyard, add
// accessToken: "myd_…" (a Modelyard API token with the read scope) to each call.
const hubUrl = "${origin}";

for await (const m of listModels({ hubUrl, search: { query: "llama", task: "text-generation" }, limit: 10 })) {
  console.log(m.name, m.downloads);
}

const info = await modelInfo({ hubUrl, name: "${EXAMPLE_MODEL}", additionalFields: ["inferenceProviderMapping"] });
console.log(info.inferenceProviderMapping);`;
  const hubRaw: RawExample[] = [
    { id: "hub-curl", title: "curl", text: hubCurl, grammar: "shellscript" },
    { id: "hub-js", title: "@huggingface/hub (JavaScript)", text: hubJs, grammar: "javascript" },
  ];
  return {
    origin,
    example: EXAMPLE_MODEL,
    examples: raw.map(highlighted),
    routing: { policy: env.MODELYARD_V1_ROUTING, failover: env.MODELYARD_V1_FAILOVER },
    hub: { parameters: hubParameters, examples: hubRaw.map(highlighted) },
  };
}
