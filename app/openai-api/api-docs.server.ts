/**
 * The examples on /docs/api, written for this server's own origin and highlighted on the server:
 * the openai SDKs (JavaScript and Python), curl, LangChain (JavaScript and Python) and a chat UI.
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
}

/** A chat model the catalogue maps to several providers, for the examples. */
const EXAMPLE_MODEL = "meta-llama/Llama-3.3-70B-Instruct";

export function buildApiDocs(origin: string): ApiDocs {
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
  const raw: Array<{ id: string; title: string; text: string; grammar: string }> = [
    { id: "openai-js", title: "openai (JavaScript)", text: js!.content, grammar: "javascript" },
    { id: "openai-python", title: "openai (Python)", text: python!.content, grammar: "python" },
    { id: "curl", title: "curl", text: curl!.content, grammar: "shellscript" },
    { id: "langchain-js", title: "LangChain (JavaScript, @langchain/openai)", text: langchainJs, grammar: "javascript" },
    { id: "langchain-python", title: "LangChain (Python, langchain-openai)", text: langchainPython, grammar: "python" },
    { id: "chat-ui", title: "A chat UI's settings", text: chatUi, grammar: "shellscript" },
  ];
  return {
    origin,
    example: EXAMPLE_MODEL,
    examples: raw.map((e) => ({ id: e.id, title: e.title, text: e.text, html: highlightCode(e.text, e.grammar) })),
    routing: { policy: env.MODELYARD_V1_ROUTING, failover: env.MODELYARD_V1_FAILOVER },
  };
}
