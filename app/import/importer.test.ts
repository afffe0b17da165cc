import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { GGUFValueType, serializeGgufMetadata } from "@huggingface/gguf";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getModelById } from "#app/db/queries/models.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { ImportFileError } from "#app/import/read-sources.server.ts";
import { hubListRows, modelCards, modelDetailRecords } from "#tests/support/fixtures.ts";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-import-test-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, lines: unknown[] | string): string {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = typeof lines === "string" ? lines : lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";
  fs.writeFileSync(file, file.endsWith(".gz") ? zlib.gzipSync(text) : text);
  return file;
}

/** Every row of every catalogue table, for "nothing changed" comparisons. */
async function snapshot(t: TestDatabase) {
  const db = t.handle.db;
  return {
    models: await db.selectFrom("models").selectAll().orderBy("id").execute().then((rows) => rows.map(({ imported_at: _i, ...r }) => r)),
    details: await db.selectFrom("model_details").selectAll().orderBy("rid").execute(),
    tags: await db.selectFrom("model_tags").selectAll().orderBy("rid").orderBy("tag").execute(),
    providers: await db.selectFrom("model_providers").selectAll().orderBy("rid").orderBy("provider").execute(),
    bases: await db.selectFrom("model_bases").selectAll().orderBy("rid").orderBy("base_id").execute(),
    spaces: await db.selectFrom("space_models").selectAll().orderBy("space_id").orderBy("model_id").execute(),
  };
}

for (const dialect of testDialects()) {
  describe(`importer on ${dialect.name}`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await dialect.create();
    });
    afterAll(async () => {
      await t.drop();
    });

    it("imports real Hub list rows and is idempotent", async () => {
      const rows = hubListRows();
      const file = write("list-2024-07-11.jsonl.gz", rows);
      // Batches smaller than the file, so the idempotence check spans batch boundaries.
      const first = await importPaths(t.handle, [file], { statsAsOf: "2024-07-11", batchSize: 70 });
      expect(first).toMatchObject({ rows: rows.length, inserted: rows.length, updated: 0, rejected: 0 });
      const before = await snapshot(t);
      const second = await importPaths(t.handle, [file], { statsAsOf: "2024-07-11", batchSize: 70 });
      expect(second).toMatchObject({ rows: rows.length, inserted: 0, updated: 0, unchanged: rows.length, rejected: 0 });
      expect(await snapshot(t)).toEqual(before);

      const sample = rows.find((r) => Array.isArray(r["tags"]) && (r["tags"] as string[]).some((x) => x.startsWith("license:")))!;
      const m = await getModelById(t.handle.db, String(sample["id"]));
      expect(m).not.toBeNull();
      expect(m!.downloads).toBe(sample["downloads"]);
      expect(m!.statsAsOf).toBe("2024-07-11");
      expect(m!.license).toBe((sample["tags"] as string[]).find((x) => x.startsWith("license:"))!.slice(8));
      const tagRows = await t.handle.db
        .selectFrom("model_tags")
        .innerJoin("models", "models.rid", "model_tags.rid")
        .select("model_tags.tag")
        .where("models.id", "=", String(sample["id"]))
        .execute();
      for (const tag of sample["tags"] as string[]) expect(tagRows.map((r) => r.tag)).toContain(tag);
    });

    it("dates no counts for a row that has none, and keeps a known model's date when a later row has none", async () => {
      // A list row as some of the bundled catalogue's are: no downloads, likes or createdAt.
      const bare = { id: "sparse-org/no-counts-yet", tags: [], pipeline_tag: "text-to-video" };
      await importPaths(t.handle, [write("bare-2024-07-11.jsonl", [bare])], { statsAsOf: "2024-07-11" });
      const m = await getModelById(t.handle.db, bare.id);
      expect(m).toMatchObject({ statsAsOf: null, downloads: 0, likes: 0 });

      const counted = { id: "sparse-org/counted", downloads: 12, likes: 3, tags: [] };
      await importPaths(t.handle, [write("counted-2024-07-11.jsonl", [counted])], { statsAsOf: "2024-07-11" });
      await importPaths(t.handle, [write("later-2024-08-01.jsonl", [{ id: counted.id, tags: ["new-tag"] }])], { statsAsOf: "2024-08-01" });
      expect(await getModelById(t.handle.db, counted.id)).toMatchObject({ statsAsOf: "2024-07-11", downloads: 12, likes: 3, tags: ["new-tag"] });
    });

    it("merges full /api/models/{id} records and partial provider records without losing data", async () => {
      const details = modelDetailRecords().find(
        (o) => !!(o["config"] as { tokenizer_config?: { chat_template?: unknown } } | undefined)?.tokenizer_config?.chat_template && !!o["safetensors"],
      )!;
      const id = String(details["id"]);
      await importPaths(t.handle, [write("details.jsonl", [details])], { statsAsOf: "2024-07-11" });
      const m = await getModelById(t.handle.db, id);
      expect(m!.sha).toBe(details["sha"]);
      expect(m!.siblings.length).toBe((details["siblings"] as unknown[]).length);
      expect(m!.params).toBe((details["safetensors"] as { total: number }).total);
      expect(m!.chatTemplate).not.toBeNull();

      const mapping = { id, inferenceProviderMapping: { together: { providerId: "org/served", task: "conversational", status: "live" } } };
      const res = await importPaths(t.handle, [write("providers.jsonl", [mapping])]);
      expect(res).toMatchObject({ updated: 1, inserted: 0 });
      const after = await getModelById(t.handle.db, id);
      expect(after!.downloads).toBe(details["downloads"]);
      expect(after!.sha).toBe(details["sha"]);
      expect(after!.siblings.length).toBe((details["siblings"] as unknown[]).length);
      expect(after!.inferenceProviderMapping).toEqual([
        { provider: "together", providerId: "org/served", task: "conversational", status: "live", adapter: null, adapterWeightsPath: null },
      ]);
      expect(after!.providers).toEqual(["together"]);
      // The list form of the mapping means the same thing and changes nothing.
      const asList = { id, inferenceProviderMapping: [{ provider: "together", providerId: "org/served", task: "conversational", status: "live" }] };
      expect(await importPaths(t.handle, [write("providers-list.json", JSON.stringify([asList]))])).toMatchObject({ unchanged: 1 });
    });

    it("files a record naming no task under the one its provider mappings name, and says so; its own tag wins", async () => {
      const id = "tester/new-chat-model";
      const chat = (provider: string, task: string) => ({ provider, providerId: `x/${provider}`, task, status: "live" });
      await importPaths(t.handle, [write("new-chat.jsonl", [{ id, tags: [], inferenceProviderMapping: [chat("together", "conversational"), chat("groq", "conversational")] }])]);
      let m = await getModelById(t.handle.db, id);
      expect([m!.pipelineTag, m!.pipelineTagFrom]).toEqual(["text-generation", "mapping"]);
      // Mappings that disagree name no task.
      await importPaths(t.handle, [write("new-chat-2.jsonl", [{ id, inferenceProviderMapping: [chat("together", "conversational"), chat("fal-ai", "text-to-image")] }])]);
      m = await getModelById(t.handle.db, id);
      expect([m!.pipelineTag, m!.pipelineTagFrom]).toEqual([null, null]);
      await importPaths(t.handle, [write("new-chat-3.jsonl", [{ id, inferenceProviderMapping: [chat("fal-ai", "text-to-image")] }])]);
      m = await getModelById(t.handle.db, id);
      expect([m!.pipelineTag, m!.pipelineTagFrom]).toEqual(["text-to-image", "mapping"]);
      // The record's own tag, once it names one, is kept over any mapping.
      await importPaths(t.handle, [write("new-chat-4.jsonl", [{ id, pipeline_tag: "image-text-to-text" }])]);
      m = await getModelById(t.handle.db, id);
      expect([m!.pipelineTag, m!.pipelineTagFrom]).toEqual(["image-text-to-text", null]);
      await importPaths(t.handle, [write("new-chat-5.jsonl", [{ id, inferenceProviderMapping: [chat("together", "conversational")] }])]);
      m = await getModelById(t.handle.db, id);
      expect([m!.pipelineTag, m!.pipelineTagFrom]).toEqual(["image-text-to-text", null]);
    });

    it("stores no parameter count for packed quantised weights, and drops one an earlier import stored", async () => {
      // Qwen/Qwen2-72B-Instruct-AWQ's row in the bundled catalogue: eight 4-bit weights per I32.
      const awq = {
        id: "Qwen/Qwen2-72B-Instruct-AWQ",
        tags: ["transformers", "safetensors", "qwen2", "text-generation", "conversational", "4-bit", "awq", "region:us"],
        config: { architectures: ["Qwen2ForCausalLM"], model_type: "qwen2", quantization_config: { bits: 4, quant_method: "awq" } },
        safetensors: { parameters: { F16: 3044057088, I32: 8876851200 }, total: 11920908288 },
      };
      const plain = { id: "Qwen/Qwen2-0.5B-Instruct", tags: ["transformers", "safetensors"], safetensors: { parameters: { BF16: 494032768 }, total: 494032768 } };
      const file = write("awq.jsonl", [awq, plain]);
      await importPaths(t.handle, [file]);
      expect((await getModelById(t.handle.db, awq.id))?.params).toBeNull();
      expect((await getModelById(t.handle.db, plain.id))?.params).toBe(494032768);
      // A database filled before this rule holds the element count; importing the row again clears it.
      await t.handle.db.updateTable("models").set({ params: 11920908288 }).where("id", "=", awq.id).execute();
      expect(await importPaths(t.handle, [file])).toMatchObject({ updated: 1, unchanged: 1 });
      expect((await getModelById(t.handle.db, awq.id))?.params).toBeNull();
    });

    it("derives base models from plain and relation tags and card data", async () => {
      const rec = {
        id: "tester/derived-model",
        tags: ["base_model:meta-llama/Llama-2-7b", "base_model:quantized:TheBloke/x", "base_model:adapter:org/adapter-base", "en"],
        cardData: { base_model: ["org/card-base"], language: ["fr"], license: "MIT" },
        downloads: 5,
      };
      await importPaths(t.handle, [write("derived.jsonl", [rec])]);
      const m = await getModelById(t.handle.db, rec.id);
      expect(m!.baseModels).toEqual(
        expect.arrayContaining([
          { id: "meta-llama/Llama-2-7b", relation: "derived" },
          { id: "TheBloke/x", relation: "quantized" },
          { id: "org/adapter-base", relation: "adapter" },
          { id: "org/card-base", relation: "derived" },
        ]),
      );
      expect(m!.languages.sort()).toEqual(["en", "fr"]);
      expect(m!.license).toBe("mit");
      expect(m!.statsAsOf).toBeNull();
      const bases = await t.handle.db.selectFrom("model_bases").select(["base_id", "relation"]).where("base_id", "=", "TheBloke/x").execute();
      expect(bases).toEqual([{ base_id: "TheBloke/x", relation: "quantized" }]);
    });

    it("rejects bad rows with line numbers and keeps the good ones", async () => {
      const huge = "x".repeat(2 * 1024 * 1024 + 10);
      const file = write("bad.jsonl", [
        { id: "good/one", downloads: 1 },
        "{not json",
        { downloads: 3 },
        { id: "good/two", downloads: "many" },
        { id: "good/one", downloads: 2 },
        { id: "bad id with spaces" },
        { id: "api/reserved" },
        { id: "good/huge", readme: huge },
        { id: "good/tags", tags: Array.from({ length: 10_001 }, (_, i) => `t${i}`) },
        "[1, 2]",
        { id: "good/three", likes: 4 },
      ]);
      const s = await importPaths(t.handle, [file]);
      expect(s.inserted).toBe(2);
      expect(s.rejected).toBe(9);
      const byLine = new Map(s.rejections.map((r) => [r.line, r.reason]));
      expect(byLine.get(2)).toMatch(/malformed JSON/);
      expect(byLine.get(3)).toMatch(/id/);
      expect(byLine.get(4)).toMatch(/downloads/);
      expect(byLine.get(5)).toMatch(/duplicate id 'good\/one' \(first seen on line 1\)/);
      expect(byLine.get(6)).toMatch(/id must look like/);
      expect(byLine.get(7)).toMatch(/reserves/);
      expect(byLine.get(8)).toMatch(/readme is larger than 2 MB/);
      expect(byLine.get(9)).toMatch(/more than 10000 tags/);
      expect(byLine.get(10)).toMatch(/record/);
      expect((await getModelById(t.handle.db, "good/one"))!.downloads).toBe(1);
      expect(await getModelById(t.handle.db, "good/three")).not.toBeNull();
    });

    it("refuses a file that is not JSON", async () => {
      const file = write("notes.txt", "hello, this is not json\n");
      await expect(importPaths(t.handle, [file])).rejects.toBeInstanceOf(ImportFileError);
      await expect(importPaths(t.handle, [path.join(tmp, "missing.jsonl")])).rejects.toThrow(/does not exist/);
    });

    it("says a folder holds nothing it can import, rather than importing 0 rows as if it were read", async () => {
      const dir = path.join(tmp, "unrelated");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "notes.txt"), "hello\n");
      fs.mkdirSync(path.join(dir, "src"), { recursive: true });
      await expect(importPaths(t.handle, [dir])).rejects.toThrow(/unrelated: holds nothing to import: no dump \(\.jsonl, \.json, \.gz\), no model card/);
    });

    it("attaches a folder of real model cards, creating models from front matter", async () => {
      const dir = path.join(tmp, "cards");
      fs.mkdirSync(dir, { recursive: true });
      const cards = modelCards();
      for (const f of ["openai__whisper-large-v3.md", "bigscience__bloom.md", "google__gemma-7b.md"]) fs.writeFileSync(path.join(dir, f), cards[f]!);
      const files = fs.readdirSync(dir);
      expect(files.length).toBe(3);
      await importPaths(t.handle, [write("existing.jsonl", [{ id: files[0]!.replace(".md", "").replace("__", "/"), downloads: 42 }])]);
      const s = await importPaths(t.handle, [dir]);
      expect(s.rejected).toBe(0);
      expect(s.inserted + s.updated).toBe(files.length);
      const first = await getModelById(t.handle.db, files[0]!.replace(".md", "").replace("__", "/"));
      expect(first!.downloads).toBe(42);
      expect(first!.cardMarkdown).toContain("---");
      expect(first!.cardData).not.toBeNull();
      expect(await importPaths(t.handle, [dir])).toMatchObject({ unchanged: files.length });
    });

    it("imports a local model folder with config, tokenizer_config and a GGUF header", async () => {
      const dir = path.join(tmp, "local__tiny-chat");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "README.md"), "---\nlicense: apache-2.0\npipeline_tag: text-generation\ntags: [chat]\n---\n# Tiny chat\n");
      fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ architectures: ["LlamaForCausalLM"], model_type: "llama" }));
      fs.writeFileSync(
        path.join(dir, "tokenizer_config.json"),
        JSON.stringify({ bos_token: "<s>", eos_token: { content: "</s>" }, chat_template: "{% for m in messages %}{{ m.content }}{% endfor %}" }),
      );
      const header = serializeGgufMetadata({
        version: { value: 3, type: GGUFValueType.UINT32 },
        tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
        kv_count: { value: 3n, type: GGUFValueType.UINT64 },
        "general.architecture": { value: "llama", type: GGUFValueType.STRING },
        "llama.context_length": { value: 4096, type: GGUFValueType.UINT32 },
        "tokenizer.chat_template": { value: "{{ messages[0].content }}", type: GGUFValueType.STRING },
      } as unknown as Parameters<typeof serializeGgufMetadata>[0]);
      fs.writeFileSync(path.join(dir, "tiny.Q4_K_M.gguf"), header);
      const s = await importPaths(t.handle, [dir]);
      expect(s).toMatchObject({ inserted: 1, rejected: 0 });
      const m = await getModelById(t.handle.db, "local/tiny-chat");
      expect(m!.pipelineTag).toBe("text-generation");
      expect(m!.license).toBe("apache-2.0");
      expect(m!.bosToken).toBe("<s>");
      expect(m!.eosToken).toBe("</s>");
      expect(m!.chatTemplate).toBe("{% for m in messages %}{{ m.content }}{% endfor %}");
      expect(m!.gguf).toMatchObject({ architecture: "llama", context_length: 4096 });
      expect(m!.siblings.map((x) => x.rfilename)).toEqual(["README.md", "config.json", "tiny.Q4_K_M.gguf", "tokenizer_config.json"].sort());
      expect(m!.siblings.every((x) => typeof x.size === "number")).toBe(true);
    });

    it("keeps a GGUF header's tokens and renders its own template with them when tokenizer_config has none", async () => {
      const dir = path.join(tmp, "local__tiny-gguf-only");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ model_type: "llama" }));
      const header = serializeGgufMetadata({
        version: { value: 3, type: GGUFValueType.UINT32 },
        tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
        kv_count: { value: 6n, type: GGUFValueType.UINT64 },
        "general.architecture": { value: "llama", type: GGUFValueType.STRING },
        "llama.context_length": { value: 4096, type: GGUFValueType.UINT32 },
        "tokenizer.chat_template": { value: "{{ bos_token }}{{ messages[0].content }}{{ eos_token }}", type: GGUFValueType.STRING },
        "tokenizer.ggml.tokens": { value: ["<unk>", "<s>", "</s>"], type: GGUFValueType.ARRAY, subType: GGUFValueType.STRING },
        "tokenizer.ggml.bos_token_id": { value: 1, type: GGUFValueType.UINT32 },
        "tokenizer.ggml.eos_token_id": { value: 2, type: GGUFValueType.UINT32 },
      } as unknown as Parameters<typeof serializeGgufMetadata>[0]);
      fs.writeFileSync(path.join(dir, "tiny.Q8_0.gguf"), header);
      expect(await importPaths(t.handle, [dir])).toMatchObject({ inserted: 1, rejected: 0 });
      const m = await getModelById(t.handle.db, "local/tiny-gguf-only");
      expect(m!.gguf).toEqual({
        total: 0,
        architecture: "llama",
        context_length: 4096,
        chat_template: "{{ bos_token }}{{ messages[0].content }}{{ eos_token }}",
        bos_token: "<s>",
        eos_token: "</s>",
      });
      expect(m!.chatTemplate).toBe("{{ bos_token }}{{ messages[0].content }}{{ eos_token }}");
      expect([m!.bosToken, m!.eosToken]).toEqual(["<s>", "</s>"]);
      expect(m!.libraryName).toBe("gguf");
    });

    it("keeps the search index in step with the models table", async () => {
      if (dialect.name !== "sqlite") return;
      const n = await sql<{ n: number }>`select count(*) as n from models`.execute(t.handle.db);
      const hits = await sql<{ n: number }>`select count(*) as n from models_fts where models_fts match 'good'`.execute(t.handle.db);
      expect(Number(hits.rows[0]!.n)).toBeGreaterThan(0);
      await sql`insert into models_fts(models_fts) values ('integrity-check')`.execute(t.handle.db);
      expect(Number(n.rows[0]!.n)).toBeGreaterThan(0);
    });

    it("derives and stores transformersInfo for transformers rows that lack it, keeping the Hub's own", async () => {
      const id = "derive-test/llama-chat";
      const hubId = "derive-test/hub-info";
      const listRow = { id, library_name: "transformers", pipeline_tag: "text-generation", tags: ["transformers", "safetensors", "llama", "text-generation", "conversational"] };
      const hubInfo = { auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation", processor: "AutoTokenizer", custom_class: "x.Y" };
      const file = write("derive/list.jsonl", [listRow, { ...listRow, id: hubId, transformersInfo: hubInfo }, { id: "derive-test/not-transformers", library_name: "diffusers", tags: ["diffusers"] }]);
      await importPaths(t.handle, [file]);

      const derived = await getModelById(t.handle.db, id);
      expect(derived?.transformersInfo).toEqual({ auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation", processor: "AutoTokenizer" });
      expect(derived?.transformersInfoSource).toBe("tags");
      expect((await getModelById(t.handle.db, "derive-test/not-transformers"))?.transformersInfo).toBeNull();

      // Importing the same rows again changes nothing; a list row never replaces the Hub's own value.
      const before = await snapshot(t);
      const again = await importPaths(t.handle, [write("derive/again.jsonl", [listRow, { ...listRow, id: hubId }])]);
      expect(again).toMatchObject({ updated: 0, unchanged: 2 });
      expect(await snapshot(t)).toEqual(before);
      const hub = await getModelById(t.handle.db, hubId);
      expect(hub?.transformersInfo).toEqual(hubInfo);
      expect(hub?.transformersInfoSource).toBe("hub");

      // A config arriving later is the better source.
      await importPaths(t.handle, [write("derive/config.jsonl", [{ id, config: { architectures: ["LlamaForSequenceClassification"], model_type: "llama" } }])]);
      const withConfig = await getModelById(t.handle.db, id);
      expect(withConfig?.transformersInfo).toEqual({ auto_model: "AutoModelForSequenceClassification", pipeline_tag: "text-classification", processor: "AutoTokenizer" });
      expect(withConfig?.transformersInfoSource).toBe("config");
    });
  });
}
