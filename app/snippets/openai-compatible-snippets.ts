/**
 * "OpenAI-compatible (this server)": code that calls a model through this server's /v1 with the
 * official openai clients and curl (ADR 0040), for the tasks /v1 serves. The token is a Modelyard
 * API token, never a provider's: the server holds the provider keys.
 */

/** The task a model's snippets are for (snippetTaskFor) -> the /v1 route that serves it. */
const ROUTES = {
  conversational: "chat/completions",
  "text-generation": "completions",
  "feature-extraction": "embeddings",
  "text-to-image": "images/generations",
  "automatic-speech-recognition": "audio/transcriptions",
  "text-to-speech": "audio/speech",
} as const;

export type OpenAiSnippetTask = keyof typeof ROUTES;

export const API_TOKEN_PLACEHOLDER = "myd_…";

export interface OpenAiSnippet {
  client: "openai-js" | "openai-python" | "curl";
  label: string;
  /** Shiki's grammar for the code. */
  grammar: "javascript" | "python" | "shellscript";
  content: string;
}

export function isOpenAiSnippetTask(task: string | null): task is OpenAiSnippetTask {
  return task !== null && task in ROUTES;
}

export interface OpenAiSnippetInput {
  task: OpenAiSnippetTask;
  /** org/name, with a :provider suffix when one is chosen. */
  model: string;
  /** This server's origin, e.g. https://models.example.org */
  origin: string;
  streaming: boolean;
}

const q = JSON.stringify;

function jsBody(input: OpenAiSnippetInput): string {
  const { task, model, streaming } = input;
  switch (task) {
    case "conversational":
      return streaming
        ? `const stream = await client.chat.completions.create({
  model: ${q(model)},
  messages: [{ role: "user", content: "What is the capital of France?" }],
  stream: true,
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`
        : `const completion = await client.chat.completions.create({
  model: ${q(model)},
  messages: [{ role: "user", content: "What is the capital of France?" }],
});
console.log(completion.choices[0].message.content);`;
    case "text-generation":
      return `const completion = await client.completions.create({
  model: ${q(model)},
  prompt: "Once upon a time",
  max_tokens: 50,
});
console.log(completion.choices[0].text);`;
    case "feature-extraction":
      return `const result = await client.embeddings.create({
  model: ${q(model)},
  input: ["Today is a sunny day", "It rains"],
});
console.log(result.data.map((d) => d.embedding.length));`;
    case "text-to-image":
      return `const image = await client.images.generate({
  model: ${q(model)},
  prompt: "Astronaut riding a horse",
});
fs.writeFileSync("image.png", Buffer.from(image.data[0].b64_json, "base64"));`;
    case "automatic-speech-recognition":
      return `const transcript = await client.audio.transcriptions.create({
  model: ${q(model)},
  file: fs.createReadStream("sample1.flac"),
});
console.log(transcript.text);`;
    case "text-to-speech":
      return `const speech = await client.audio.speech.create({
  model: ${q(model)},
  input: "Hello from Modelyard",
  voice: "default",
});
fs.writeFileSync("speech.wav", Buffer.from(await speech.arrayBuffer()));`;
  }
}

function pythonBody(input: OpenAiSnippetInput): string {
  const { task, model, streaming } = input;
  switch (task) {
    case "conversational":
      return streaming
        ? `stream = client.chat.completions.create(
    model=${q(model)},
    messages=[{"role": "user", "content": "What is the capital of France?"}],
    stream=True,
)
for chunk in stream:
    print(chunk.choices[0].delta.content or "", end="")`
        : `completion = client.chat.completions.create(
    model=${q(model)},
    messages=[{"role": "user", "content": "What is the capital of France?"}],
)
print(completion.choices[0].message.content)`;
    case "text-generation":
      return `completion = client.completions.create(model=${q(model)}, prompt="Once upon a time", max_tokens=50)
print(completion.choices[0].text)`;
    case "feature-extraction":
      return `result = client.embeddings.create(model=${q(model)}, input=["Today is a sunny day", "It rains"])
print([len(d.embedding) for d in result.data])`;
    case "text-to-image":
      return `import base64

image = client.images.generate(model=${q(model)}, prompt="Astronaut riding a horse")
with open("image.png", "wb") as f:
    f.write(base64.b64decode(image.data[0].b64_json))`;
    case "automatic-speech-recognition":
      return `with open("sample1.flac", "rb") as audio:
    transcript = client.audio.transcriptions.create(model=${q(model)}, file=audio)
print(transcript.text)`;
    case "text-to-speech":
      return `speech = client.audio.speech.create(model=${q(model)}, input="Hello from Modelyard", voice="default")
speech.write_to_file("speech.wav")`;
  }
}

function curl(input: OpenAiSnippetInput): string {
  const { task, model, origin, streaming } = input;
  const url = `${origin}/v1/${ROUTES[task]}`;
  const head = `curl ${url} \\\n    -H "Authorization: Bearer $OPENAI_API_KEY" \\\n`;
  if (task === "automatic-speech-recognition") return `${head}    -F model=${q(model)} \\\n    -F file=@sample1.flac`;
  const body: Record<string, unknown> = { model };
  if (task === "conversational") {
    body["messages"] = [{ role: "user", content: "What is the capital of France?" }];
    if (streaming) body["stream"] = true;
  } else if (task === "text-generation") Object.assign(body, { prompt: "Once upon a time", max_tokens: 50 });
  else if (task === "feature-extraction") body["input"] = ["Today is a sunny day", "It rains"];
  else if (task === "text-to-image") body["prompt"] = "Astronaut riding a horse";
  else body["input"] = "Hello from Modelyard";
  const out = task === "text-to-speech" ? ` \\\n    -o speech.wav` : "";
  return `${head}    -H "Content-Type: application/json" \\\n    -d '${JSON.stringify(body, null, 4).replace(/\n/g, "\n    ").replace(/'/g, "'\\''")}'${out}`;
}

/** The three clients' code for one model on this server. */
export function openAiCompatibleSnippets(input: OpenAiSnippetInput): OpenAiSnippet[] {
  const usesFs = input.task === "text-to-image" || input.task === "automatic-speech-recognition" || input.task === "text-to-speech";
  const js = `${usesFs ? 'import fs from "node:fs";\n' : ""}import OpenAI from "openai";

// The key is read from OPENAI_API_KEY: a Modelyard API token (${API_TOKEN_PLACEHOLDER}) from ${input.origin}/settings/tokens
const client = new OpenAI({ baseURL: ${q(`${input.origin}/v1`)} });

${jsBody(input)}`;
  const python = `from openai import OpenAI

# The key is read from OPENAI_API_KEY: a Modelyard API token (${API_TOKEN_PLACEHOLDER}) from ${input.origin}/settings/tokens
client = OpenAI(base_url=${q(`${input.origin}/v1`)})

${pythonBody(input)}`;
  return [
    { client: "openai-js", label: "openai (JavaScript)", grammar: "javascript", content: js },
    { client: "openai-python", label: "openai (Python)", grammar: "python", content: python },
    { client: "curl", label: "curl", grammar: "shellscript", content: curl(input) },
  ];
}
