import type { InferenceProviderOrPolicy } from "@huggingface/inference";
import { snippets } from "@huggingface/inference";
import type { ModelData } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { fixtureById, loadInferenceFixtures, loadLibraryFixtures, slug } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import type { InferenceSnippetsResult, LibraryProviderMapping } from "#app/snippets/inference-snippets.ts";
import {
  SnippetInputError,
  TOKEN_PLACEHOLDER,
  getInferenceSnippetsFor,
  maskSnippets,
  maskToken,
  maskedTokenValue,
} from "#app/snippets/inference-snippets.ts";
import { isPipelineType, toModelData } from "#app/snippets/model-data.ts";
import { snippetTaskFor } from "#app/snippets/providers.ts";
import { correctSnippets } from "#app/snippets/snippet-corrections.ts";

const models = loadInferenceFixtures();
const modelOf = (id: string) => fixtureById(models, id);

/** The library's own output for the same model, called directly. */
function libraryOutput(
  model: CatalogModel,
  data: ModelData,
  provider: InferenceProviderOrPolicy,
  options: Record<string, unknown>,
  token = TOKEN_PLACEHOLDER,
) {
  const row = model.inferenceProviderMapping.find((m) => m.provider === provider);
  let mapping: LibraryProviderMapping | undefined;
  if (provider !== "auto" && row !== undefined) {
    const task = row.task === "conversational" ? "conversational" : isPipelineType(row.task) ? row.task : undefined;
    if (task === undefined) throw new Error(`fixture mapping with unknown task ${row.task}`);
    mapping = { hfModelId: model.id, providerId: row.providerId, task, status: row.status ?? "live" };
    if (row.adapter !== null) mapping.adapter = row.adapter;
    if (row.adapterWeightsPath !== null) mapping.adapterWeightsPath = row.adapterWeightsPath;
  }
  return snippets.getInferenceSnippets(data, token, provider, mapping, options);
}

function flat(result: InferenceSnippetsResult) {
  return result.languages.flatMap((l) => l.clients.map((c) => ({ language: l.language, client: c.client, content: c.content })));
}

interface Case {
  provider: InferenceProviderOrPolicy;
  streaming: boolean;
}

const CHAT_PROVIDERS: Record<string, InferenceProviderOrPolicy[]> = {
  "meta-llama/Llama-3.3-70B-Instruct": [
    "auto",
    "cerebras",
    "fireworks-ai",
    "groq",
    "hf-inference",
    "hyperbolic",
    "nebius",
    "novita",
    "sambanova",
    "together",
  ],
  "meta-llama/Meta-Llama-3-8B-Instruct": ["hf-inference", "together", "fireworks-ai"],
  "CohereLabs/c4ai-command-r-plus": ["cohere"],
  "meta-llama/Llama-3.2-11B-Vision-Instruct": ["hf-inference", "novita", "sambanova", "together"],
};

const NON_CHAT_PROVIDERS: Record<string, InferenceProviderOrPolicy[]> = {
  "black-forest-labs/FLUX.1-dev": ["auto", "black-forest-labs", "fal-ai", "hf-inference", "nebius", "replicate", "together"],
  "stabilityai/stable-diffusion-xl-base-1.0": ["nscale"],
  "nerijs/pixel-art-xl": ["fal-ai"],
  "distilbert/distilbert-base-uncased-finetuned-sst-2-english": ["hf-inference"],
  "BAAI/bge-small-en-v1.5": ["hf-inference"],
  "openai/whisper-large-v3": ["hf-inference", "fal-ai"],
  "google-bert/bert-base-uncased": ["hf-inference"],
};

function casesFor(id: string): Case[] {
  const chat = CHAT_PROVIDERS[id];
  if (chat !== undefined) return chat.flatMap((provider) => [false, true].map((streaming) => ({ provider, streaming })));
  return (NON_CHAT_PROVIDERS[id] ?? []).map((provider) => ({ provider, streaming: false }));
}

function golden(id: string, sections: Array<{ c: Case; result: InferenceSnippetsResult }>): string {
  return sections
    .map(({ c, result }) => {
      const head = `######## ${id} | provider=${c.provider} | streaming=${String(c.streaming)}\n`;
      return (
        head +
        result.languages
          .flatMap((l) => l.clients.map((client) => `===== ${l.label} / ${client.label}\n${client.content}\n`))
          .join("")
      );
    })
    .join("\n");
}

describe("getInferenceSnippetsFor returns the library's text, changed only where snippet-corrections.ts corrects it", () => {
  for (const id of [...Object.keys(CHAT_PROVIDERS), ...Object.keys(NON_CHAT_PROVIDERS)]) {
    it(id, async () => {
      const model = modelOf(id);
      const data = toModelData(model);
      const sections: Array<{ c: Case; result: InferenceSnippetsResult }> = [];
      for (const c of casesFor(id)) {
        const result = getInferenceSnippetsFor(model, { provider: c.provider, streaming: c.streaming });
        expect(result.error, `${c.provider}`).toBeUndefined();
        const direct = libraryOutput(model, data, c.provider, { streaming: c.streaming });
        expect(direct.length, `${c.provider} has snippets`).toBeGreaterThan(0);
        // Same snippets, same order, byte-identical content, but for the corrections.
        expect(flat(result)).toStrictEqual(correctSnippets(direct, snippetTaskFor(model), c.provider));
        sections.push({ c, result });
      }
      await expect(golden(id, sections)).toMatchFileSnapshot(`./__snapshots__/inference/${slug(id)}.txt`);
    });
  }
});

describe("snippet text details", () => {
  const all = Object.keys(CHAT_PROVIDERS)
    .concat(Object.keys(NON_CHAT_PROVIDERS))
    .flatMap((id) => casesFor(id).map((c) => getInferenceSnippetsFor(modelOf(id), c)));

  it("keeps Python and shell code on 4-space indentation (no tabs, indents in steps of four)", () => {
    let checkedLines = 0;
    for (const result of all) {
      for (const language of result.languages.filter((l) => l.language !== "js")) {
        for (const client of language.clients) {
          for (const line of client.content.split("\n")) {
            if (line.trim() === "") continue;
            const indent = /^[ \t]*/.exec(line)?.[0] ?? "";
            expect(indent, `${client.client}: ${JSON.stringify(line)}`).not.toContain("\t");
            expect(indent.length % 4, `${client.client}: ${JSON.stringify(line)}`).toBe(0);
            if (indent.length > 0) checkedLines += 1;
          }
        }
      }
    }
    expect(checkedLines).toBeGreaterThan(1000);
  });

  it("keeps the tabs the library's JavaScript fetch template uses", () => {
    const result = getInferenceSnippetsFor(modelOf("google-bert/bert-base-uncased"), { provider: "hf-inference" });
    const fetchClient = result.languages.find((l) => l.language === "js")?.clients.find((c) => c.client === "fetch");
    expect(fetchClient?.content).toContain('\tconst response = await fetch(\n\t\t"https://router.huggingface.co/hf-inference/models/google-bert/bert-base-uncased",');
  });

  it("groups languages in the library's order with the library's clients", () => {
    const chat = getInferenceSnippetsFor(modelOf("meta-llama/Llama-3.3-70B-Instruct"), { provider: "together" });
    expect(chat.languages.map((l) => [l.language, l.label, l.clients.map((c) => c.client)])).toEqual([
      ["python", "Python", ["huggingface_hub", "requests", "openai"]],
      ["js", "JavaScript", ["huggingface.js", "openai"]],
      ["sh", "Shell", ["curl"]],
    ]);
    const auto = getInferenceSnippetsFor(modelOf("meta-llama/Llama-3.3-70B-Instruct"), { provider: "auto" });
    expect(auto.languages.map((l) => [l.language, l.clients.map((c) => c.client)])).toEqual([
      ["python", ["huggingface_hub"]],
      ["js", ["huggingface.js"]],
    ]);
    const fal = getInferenceSnippetsFor(modelOf("black-forest-labs/FLUX.1-dev"), { provider: "fal-ai" });
    expect(fal.languages.map((l) => [l.language, l.clients.map((c) => c.client)])).toEqual([
      ["python", ["huggingface_hub", "fal_client"]],
      ["js", ["fetch", "huggingface.js"]],
    ]);
  });

  it("uses the provider's model id and the router URL", () => {
    const groq = getInferenceSnippetsFor(modelOf("meta-llama/Llama-3.3-70B-Instruct"), { provider: "groq" });
    const curl = groq.languages.find((l) => l.language === "sh")?.clients[0]?.content ?? "";
    expect(curl).toContain("https://router.huggingface.co/groq/openai/v1/chat/completions");
    expect(curl).toContain('"model": "llama-3.3-70b-versatile"');
  });

  it("passes the LoRA adapter of a fal-ai mapping to the library", () => {
    const lora = getInferenceSnippetsFor(modelOf("nerijs/pixel-art-xl"), { provider: "fal-ai" });
    const falClient = lora.languages.find((l) => l.language === "python")?.clients.find((c) => c.client === "fal_client");
    expect(falClient?.content).toContain('"fal-ai/lora"');
    expect(falClient?.content).toContain("pixel-art-xl.safetensors");
  });

  it("fills the fill-mask example with the model's mask token", () => {
    const result = getInferenceSnippetsFor(modelOf("google-bert/bert-base-uncased"), { provider: "hf-inference" });
    for (const client of result.languages.flatMap((l) => l.clients)) {
      expect(client.content).toContain("The answer to the universe is [MASK].");
    }
    expect(result.maskTokenPlaceholder).toBeUndefined();
  });

  it("writes a marked placeholder, never undefined, when the catalogue does not know the mask token", () => {
    // A list row as Rostlab/prot_bert's: no config, and no model-type tag among its tags.
    const bert = modelOf("google-bert/bert-base-uncased");
    const listRow: CatalogModel = { ...bert, config: null, tags: ["transformers", "pytorch", "fill-mask", "protein", "region:us"] };
    expect(toModelData(listRow).mask_token).toBeUndefined();
    const result = getInferenceSnippetsFor(listRow, { provider: "hf-inference" });
    const clients = result.languages.flatMap((l) => l.clients);
    expect(clients.length).toBeGreaterThan(0);
    for (const client of clients) {
      expect(client.content, client.client).toContain("The answer to the universe is {{MASK_TOKEN}}.");
      expect(client.content, client.client).not.toContain("undefined");
    }
    expect(result.maskTokenPlaceholder).toBe("{{MASK_TOKEN}}");
    // The visitor's own text replaces the example, placeholder and all.
    const followed = getInferenceSnippetsFor(listRow, { provider: "hf-inference", inputs: "Paris is the [MASK] of France." });
    expect(flat(followed).map((s) => s.content).join("\n")).not.toContain("{{MASK_TOKEN}}");
    expect(followed.maskTokenPlaceholder).toBeUndefined();
  });
});

describe("token handling", () => {
  const llama = modelOf("meta-llama/Llama-3.3-70B-Instruct");
  const token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567";

  it("shows the hf_*** placeholder wherever the library puts the token when none is saved", () => {
    const result = getInferenceSnippetsFor(llama, { provider: "together" });
    for (const client of result.languages.flatMap((l) => l.clients)) {
      expect(client.content, client.client).toContain(TOKEN_PLACEHOLDER);
    }
  });

  it("differs from the placeholder text only by the token string", () => {
    for (const provider of ["together", "hf-inference", "auto"] as const) {
      const placeholder = flat(getInferenceSnippetsFor(llama, { provider, streaming: true }));
      const withToken = flat(getInferenceSnippetsFor(llama, { provider, streaming: true, accessToken: token }));
      expect(withToken).toStrictEqual(
        placeholder.map((s) => ({ ...s, content: s.content.split(TOKEN_PLACEHOLDER).join(token) })),
      );
    }
  });

  it("masks the token on screen and keeps the full text for an explicit copy", () => {
    const result = getInferenceSnippetsFor(llama, { provider: "groq", accessToken: token });
    const masked = maskSnippets(result, token);
    expect(maskedTokenValue(token)).toBe(`hf_${"*".repeat(token.length - 3)}`);
    const all = flat(masked);
    expect(all.length).toBeGreaterThan(0);
    for (const [index, snippet] of all.entries()) {
      expect(snippet.content).not.toContain(token);
      expect(snippet.content).toContain(maskedTokenValue(token));
      expect(flat(result)[index]?.content).toContain(token);
    }
    expect(maskToken("no token here", token)).toBe("no token here");
    expect(maskToken("Bearer x", undefined)).toBe("Bearer x");
    expect(maskedTokenValue("short")).toBe("*****");
  });

  it("lets the library route a provider's own key straight to the provider", () => {
    const key = "fw_3ZabcdefGHIJKLmnop";
    const result = getInferenceSnippetsFor(llama, { provider: "fireworks-ai", accessToken: key });
    const curl = result.languages.find((l) => l.language === "sh")?.clients[0]?.content ?? "";
    expect(curl).toContain("https://api.fireworks.ai/inference/v1/chat/completions");
    expect(curl).toContain(`Bearer ${key}`);
    expect(maskToken(curl, key)).not.toContain(key);
  });
});

describe("options", () => {
  const llama = modelOf("meta-llama/Llama-3.3-70B-Instruct");

  it("puts the bill-to name into every chat client", () => {
    const result = getInferenceSnippetsFor(llama, { provider: "novita", billTo: "my-org" });
    const clients = result.languages.flatMap((l) => l.clients);
    expect(clients.length).toBe(6);
    for (const client of clients) expect(client.content, client.client).toContain("my-org");
  });

  it("passes the chat demo's messages and parameters (3.13.1 drops a temperature of 0)", () => {
    const parameters = {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Name a prime." },
      ],
      temperature: 0.5,
      max_tokens: 256,
      top_p: 0.9,
    };
    const result = getInferenceSnippetsFor(llama, { provider: "cerebras", parameters });
    const requests = result.languages.find((l) => l.language === "python")?.clients.find((c) => c.client === "requests");
    expect(requests?.content).toContain('"content": "Be brief."');
    expect(requests?.content).toContain('"temperature": 0.5');
    expect(requests?.content).toContain('"max_tokens": 256');
    expect(requests?.content).toContain('"top_p": 0.9');
    const direct = libraryOutput(llama, toModelData(llama), "cerebras", { ...parameters, streaming: false });
    expect(flat(result)).toStrictEqual(direct);

    const zero = getInferenceSnippetsFor(llama, { provider: "cerebras", parameters: { temperature: 0 } });
    expect(zero.languages.flatMap((l) => l.clients).some((c) => c.content.includes("temperature"))).toBe(false);
  });

  it("refuses bad input with a clear message", () => {
    const cases: Array<[Parameters<typeof getInferenceSnippetsFor>[1], RegExp]> = [
      [{ provider: "wavespeed" }, /not supported by @huggingface\/inference 3\.13\.1/],
      [{ provider: "replicate" }, /does not serve meta-llama\/Llama-3\.3-70B-Instruct/],
      [{ provider: "together", billTo: 'org"; rm -rf /' }, /billTo/],
      [{ provider: "together", accessToken: "hf_abc\"\nimport os" }, /accessToken/],
      [{ provider: "together", parameters: { temperature: "hot" } }, /parameters\.temperature/],
      [{ provider: "together", parameters: { messages: [] } }, /parameters\.messages/],
    ];
    for (const [options, message] of cases) {
      expect(() => getInferenceSnippetsFor(llama, options)).toThrow(SnippetInputError);
      expect(() => getInferenceSnippetsFor(llama, options)).toThrow(message);
    }
  });

  it("refuses a mapped provider the library has no helper for", () => {
    expect(() => getInferenceSnippetsFor(modelOf("openai/whisper-large-v3"), { provider: "together" })).toThrow(
      /has no automatic-speech-recognition snippets for provider "together"/,
    );
  });

  it("refuses a model no provider serves", () => {
    const qwen = fixtureById(loadLibraryFixtures().map((f) => f.catalog), "Qwen/Qwen2-0.5B-Instruct");
    expect(() => getInferenceSnippetsFor(qwen, { provider: "auto" })).toThrow(SnippetInputError);
  });

  it("reports the library's own refusal instead of throwing", () => {
    // 3.13.1 will not put an HF token (the placeholder is one) into code for the "openai" provider.
    const openai: CatalogModel = {
      ...llama,
      inferenceProviderMapping: [
        { provider: "openai", providerId: "gpt-4o", task: "conversational", status: "live", adapter: null, adapterWeightsPath: null },
      ],
    };
    const result = getInferenceSnippetsFor(openai, { provider: "openai" });
    expect(result.languages).toEqual([]);
    expect(result.error).toBe("Provider openai is closed-source and does not support HF tokens.");
  });
});

describe("a widget's text in place of the library's example input", () => {
  const text = `She said "don't" \\ twice`;

  it("prints the text where the library printed its example, in every client, as the library would quote it", () => {
    const model = modelOf("distilbert/distilbert-base-uncased-finetuned-sst-2-english");
    const plain = getInferenceSnippetsFor(model, { provider: "hf-inference" });
    const withText = getInferenceSnippetsFor(model, { provider: "hf-inference", inputs: text });
    const clients = (r: InferenceSnippetsResult) => r.languages.flatMap((l) => l.clients.map((c) => ({ language: l.language, client: c.client, content: c.content })));
    const before = clients(plain);
    const after = clients(withText);
    expect(after.map((c) => c.client)).toEqual(before.map((c) => c.client));
    for (const [i, c] of after.entries()) {
      const original = before[i]!.content;
      expect(original).toContain("I like you. I love you");
      expect(c.content).not.toContain("I like you. I love you");
      if (c.language === "sh") {
        // The library JSON-encodes its quoted example once more inside the single-quoted body.
        const encoded = `"inputs": "\\"She said \\\\\\"don'\\''t\\\\\\" \\\\\\\\ twice\\""`;
        expect(c.content).toContain(encoded);
        expect(c.content.replace(encoded, `"inputs": "\\"I like you. I love you\\""`)).toBe(original);
      } else {
        expect(c.content).toContain(JSON.stringify(text));
        // Nothing else moves: putting the example back gives the library's text exactly.
        expect(c.content.split(JSON.stringify(text)).join('"I like you. I love you"')).toBe(original);
      }
    }
  });

  it("matches what the library prints for a model whose own example is that text", () => {
    const model = modelOf("google-bert/bert-base-uncased");
    const data = toModelData(model);
    const library = libraryOutput(model, data, "hf-inference", {});
    const ours = getInferenceSnippetsFor(model, { provider: "hf-inference", inputs: "Paris is the [MASK] of France." });
    const js = ours.languages.find((l) => l.language === "js")?.clients.find((c) => c.client === "huggingface.js")?.content ?? "";
    const theirs = library.find((s) => s.language === "js" && s.client === "huggingface.js")?.content ?? "";
    expect(theirs).toContain('inputs: "The answer to the universe is [MASK].",');
    expect(js).toBe(theirs.replace('"The answer to the universe is [MASK]."', '"Paris is the [MASK] of France."'));
  });

  it("refuses empty or oversized text", () => {
    const model = modelOf("distilbert/distilbert-base-uncased-finetuned-sst-2-english");
    expect(() => getInferenceSnippetsFor(model, { provider: "hf-inference", inputs: "" })).toThrow(SnippetInputError);
    expect(() => getInferenceSnippetsFor(model, { provider: "hf-inference", inputs: "x".repeat(4_001) })).toThrow(/inputs/);
  });
});

describe("a prompt in a media task's snippets", () => {
  it("replaces the example prompt in every client, plain or JSON-encoded as the template prints it", () => {
    const model = modelOf("stabilityai/stable-diffusion-xl-base-1.0");
    const plain = getInferenceSnippetsFor(model, { provider: "hf-inference" });
    const withText = getInferenceSnippetsFor(model, { provider: "hf-inference", inputs: "a lighthouse at dusk" });
    const js = (r: InferenceSnippetsResult) => r.languages.find((l) => l.language === "js")?.clients[0]?.content ?? "";
    expect(js(plain)).toContain('inputs: "\\"Astronaut riding a horse\\"",');
    expect(js(withText)).toContain('inputs: "\\"a lighthouse at dusk\\"",');
    for (const l of withText.languages) for (const c of l.clients) expect(c.content, c.client).not.toContain("Astronaut");
  });
});
