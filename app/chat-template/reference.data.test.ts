import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { renderChatTemplate } from "#app/chat-template/render.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

/**
 * Data suite. Conformance against the reference: Python Jinja2 configured like transformers'
 * apply_chat_template (scripts/chat-template-reference.py), over every distinct real template in
 * ../shared/data/chat-templates × the minja golden contexts. Writes docs/chat-template-conformance.md.
 * A regression (fewer matches, or a mismatch nobody explained) fails the test.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA = path.join(sharedDataDir(), "chat-templates");
const REPORT = path.join(ROOT, "docs/chat-template-conformance.md");
const CONTEXTS = ["simple", "system", "tool_use"] as const;
// strftime_now is pinned so both engines print the same date.
const NOW_ISO = "2024-09-03T10:11:12";
const NOW = new Date(2024, 8, 3, 10, 11, 12);

/** Identical output on at least this many cases; raise it when the engine improves. */
const MATCH_FLOOR = 261;

type Category = "engine gap" | "needs an extension" | "bug in Modelyard";

/** Every case where one engine renders and the other fails, or both render different text. */
const EXPLAINED_MISMATCHES: Record<string, { category: Category; explanation: string }> = {
  "by-model:CohereLabs/command-a-reasoning-08-2025#tool_use": {
    category: "engine gap",
    explanation:
      "Undefined is lenient in @huggingface/jinja. The template reads `message.content[0].thinking`; the context's tool-calling " +
      'assistant turns have `content: ""`, so `content[0]` is undefined. Python raises UndefinedError ("str object has no ' +
      'element 0") when an attribute of an undefined value is read; @huggingface/jinja returns undefined and renders on. ' +
      "transformers fails on this input, Modelyard renders it.",
  },
  "by-model:meta-llama/Llama-Guard-3-11B-Vision#simple": {
    category: "engine gap",
    explanation:
      "`message['content'] | selectattr('type', 'equalto', 'image')` on string content. Python iterates the characters, none " +
      "has a `type`, and the result is empty; @huggingface/jinja's selectattr only accepts a list of objects and throws. " +
      "(Modelyard already turns a string into its characters for iterating filters and for-loops, but selectattr then " +
      "rejects the non-object items.) The system and tool_use contexts fail in both engines, Python later on role alternation.",
  },
};

/** Notes for cases where both engines fail but for different reasons. */
const BOTH_FAIL_NOTES: Record<string, string> = {
  "by-model:meta-llama/Llama-3.1-8B-Instruct#tool_use":
    "engine gap: @huggingface/jinja has no `reject` filter (line 29, `builtin_tools | reject(...)`); Python gets further and fails at line 77, `tool_call.arguments | items`, because the context's arguments are a JSON string, not a mapping.",
  "hub:0x1nsomnia/test_model#simple":
    "a sandbox-escape probe (`().__class__.__base__.__subclasses__()` looking for Popen): Jinja's sandbox raises SecurityError, @huggingface/jinja cannot parse the empty tuple `()`. Both refuse it.",
  "hub:0x1nsomnia/test_model#system": "as above.",
  "hub:0x1nsomnia/test_model#tool_use": "as above.",
  "by-model:meta-llama/Llama-Guard-3-11B-Vision#system":
    "engine gap (selectattr over a string, see the mismatch above) hides Python's later error on role alternation.",
  "by-model:meta-llama/Llama-Guard-3-11B-Vision#tool_use": "as above.",
};

interface Case {
  id: string;
  template: string;
  context: Record<string, unknown>;
  now: string;
}

const referenceResult = z.union([
  z.object({ id: z.string(), ok: z.literal(true), text: z.string() }),
  z.object({ id: z.string(), ok: z.literal(false), type: z.string(), message: z.string(), line: z.number().nullable() }),
]);
type ReferenceResult = z.infer<typeof referenceResult>;

function loadTemplates(): { templates: Map<string, string>; counts: Record<string, number> } {
  const templates = new Map<string, string>();
  const counts: Record<string, number> = { hub: 0, "by-model": 0, ollama: 0 };
  const add = (template: unknown, label: string, source: string) => {
    if (typeof template !== "string" || templates.has(template)) return;
    templates.set(template, label);
    counts[source] = (counts[source] ?? 0) + 1;
  };
  const jsonl = (file: string) =>
    readFileSync(path.join(DATA, file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => z.record(z.string(), z.unknown()).parse(JSON.parse(line)));
  for (const row of jsonl("hub-tokenizer-configs-2024-07.jsonl")) add(row.chat_template, `hub:${String(row.model)}`, "hub");
  for (const file of readdirSync(path.join(DATA, "by-model")).sort()) {
    const row = z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(path.join(DATA, "by-model", file), "utf8")));
    add(row.chat_template, `by-model:${String(row.model)}`, "by-model");
  }
  for (const row of jsonl("ollama-hf-templates.jsonl")) add(row.chat_template, `ollama:${String(row.ollama_family)}`, "ollama");
  return { templates, counts };
}

function runReference(cases: Case[]): ReferenceResult[] {
  const python = spawnSync("python3", [path.join(ROOT, "scripts/chat-template-reference.py")], {
    input: cases.map((c) => JSON.stringify(c)).join("\n"),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (python.status !== 0) throw new Error(`reference renderer failed: ${python.stderr || String(python.error)}`);
  return python.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => referenceResult.parse(JSON.parse(line)));
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 140);

describe("chat-template conformance with transformers (Python Jinja2 3.1.6)", () => {
  it("matches the reference on the real templates, and every difference is explained", () => {
    const { templates, counts } = loadTemplates();
    const contexts = CONTEXTS.map(
      (name) =>
        [name, z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(path.join(DATA, "minja-contexts", `${name}.json`), "utf8")))] as const,
    );
    const cases: Case[] = [];
    for (const [template, label] of templates) {
      for (const [name, context] of contexts) cases.push({ id: `${label}#${name}`, template, context, now: NOW_ISO });
    }
    const reference = runReference(cases);
    expect(reference).toHaveLength(cases.length);

    const matches: string[] = [];
    const bothFail: Array<{ id: string; ours: string; oursLine: number | null; theirs: string; theirsLine: number | null }> = [];
    const mismatches: Array<{ id: string; ours: string; theirs: string }> = [];
    for (const [index, testCase] of cases.entries()) {
      const expected = reference[index];
      if (!expected) throw new Error(`no reference result for ${testCase.id}`);
      expect(expected.id).toBe(testCase.id);
      const { messages, tools, documents, add_generation_prompt, bos_token, eos_token, ...extra } = testCase.context;
      const actual = renderChatTemplate({
        template: testCase.template,
        messages: Array.isArray(messages) ? messages : [],
        tools: Array.isArray(tools) ? tools : null,
        documents: Array.isArray(documents) ? documents : null,
        addGenerationPrompt: add_generation_prompt === true,
        bosToken: typeof bos_token === "string" ? bos_token : null,
        eosToken: typeof eos_token === "string" ? eos_token : null,
        extraContext: extra,
        now: NOW,
      });
      if (actual.ok && expected.ok && actual.text === expected.text) {
        matches.push(testCase.id);
      } else if (!actual.ok && !expected.ok) {
        bothFail.push({
          id: testCase.id,
          ours: actual.error.message,
          oursLine: actual.error.line,
          theirs: `${expected.type}: ${expected.message}`,
          theirsLine: expected.line,
        });
      } else {
        let where = "";
        if (actual.ok && expected.ok) {
          let i = 0;
          while (actual.text[i] === expected.text[i]) i++;
          where = ` (first difference at character ${i})`;
        }
        mismatches.push({
          id: testCase.id,
          ours: actual.ok ? `text${where}: ${JSON.stringify(actual.text.slice(0, 80))}…` : `error: ${actual.error.message} (line ${actual.error.line})`,
          theirs: expected.ok ? `text: ${JSON.stringify(expected.text.slice(0, 80))}…` : `${expected.type}: ${expected.message} (line ${expected.line})`,
        });
      }
    }

    const sameLine = bothFail.filter((row) => row.oursLine !== null && row.oursLine === row.theirsLine).length;
    const total = cases.length;
    const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
    const lines = [
      "# Chat-template conformance",
      "",
      "Generated by `app/chat-template/reference.test.ts`; do not edit by hand.",
      "",
      "Modelyard renders chat templates with `@huggingface/jinja` 0.5.11 plus a thin layer (`app/chat-template/engine/`).",
      "The reference is Python Jinja2 3.1.6 configured like transformers' `apply_chat_template`",
      "(`scripts/chat-template-reference.py`: ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks,",
      "loop controls, the `{% generation %}` tag, transformers' `tojson`, `raise_exception`, `strftime_now`).",
      `Both engines get the same context keys (messages, tools, add_generation_prompt, bos/eos and the context's extra keys) and \`strftime_now\` pinned to ${NOW_ISO}.`,
      "",
      "## Corpus",
      "",
      `- ${templates.size} distinct templates: ${counts.hub} from the 1,270 Hub tokenizer configs, ${counts["by-model"]} more from \`by-model/\`, ${counts.ollama} more from \`ollama-hf-templates.jsonl\` (duplicates counted once, first source named).`,
      `- ${CONTEXTS.length} contexts from \`minja-contexts/\`: ${CONTEXTS.join(", ")}.`,
      `- ${total} cases.`,
      "",
      "## Result",
      "",
      "| outcome | cases | share |",
      "|---|---:|---:|",
      `| identical text | ${matches.length} | ${pct(matches.length)} |`,
      `| both engines fail (the template rejects the context) | ${bothFail.length} | ${pct(bothFail.length)} |`,
      `| **agreement** (identical text or both fail) | ${matches.length + bothFail.length} | ${pct(matches.length + bothFail.length)} |`,
      `| mismatch | ${mismatches.length} | ${pct(mismatches.length)} |`,
      "",
      `Where both fail, the reported line agrees with Python's in ${sameLine} of ${bothFail.length} cases (positions are derived, see engine/positions.ts).`,
      "",
      "## Mismatches",
      "",
      "| case | category | Modelyard | reference | explanation |",
      "|---|---|---|---|---|",
      ...mismatches.map((row) => {
        const known = EXPLAINED_MISMATCHES[row.id];
        return `| ${cell(row.id)} | ${known?.category ?? "**unexplained**"} | ${cell(row.ours)} | ${cell(row.theirs)} | ${known ? cell(known.explanation).padEnd(0) : ""} |`;
      }),
      "",
      "Full explanations:",
      "",
      ...mismatches.map((row) => `- **${row.id}** (${EXPLAINED_MISMATCHES[row.id]?.category ?? "unexplained"}): ${EXPLAINED_MISMATCHES[row.id]?.explanation ?? "not explained"}`),
      "",
      "## Cases where both engines fail",
      "",
      "Most are templates that refuse the context on purpose (`raise_exception`: no system role, roles must alternate, no tool role).",
      "",
      "| case | Modelyard (line) | reference (line) | note |",
      "|---|---|---|---|",
      ...bothFail.map(
        (row) => `| ${cell(row.id)} | ${cell(row.ours)} (${row.oursLine ?? "?"}) | ${cell(row.theirs)} (${row.theirsLine ?? "?"}) | ${cell(BOTH_FAIL_NOTES[row.id] ?? "")} |`,
      ),
      "",
      "## Where Modelyard's layer departs from plain @huggingface/jinja",
      "",
      "These close gaps found by this test; each is small and local to `engine/render.ts` and `engine/python.ts`:",
      "",
      "- `{{ value }}` and `value | string` print what Python's `str()` prints: `True`/`False`/`None`, and lists/dicts in Python repr (`{'a': 1}`), not JSON.",
      "- `dict(**kwargs)` exists (a Jinja default global).",
      "- A string is iterated character by character in `for` loops and in `select`/`reject`/`selectattr`/`rejectattr`/`map`/`list`.",
      "- `range()` refuses more than 100,000 items with the message of Jinja's sandbox (`MAX_RANGE`), so `range(10**9)` fails at once instead of allocating.",
      "- `strftime_now` formats like Python's `strftime` in the C locale.",
      "",
      "No case in this corpus needed an extension: `{% generation %}` / `{% endgeneration %}` (transformers' AssistantTracker) are dropped by @huggingface/jinja's preprocessing, which is what rendering them without an assistant mask does.",
      "",
      "Known engine gaps not closed (not hit by this corpus except as listed): reading an attribute of an undefined value does not raise; `reject`, `selectattr` over non-objects and some other filters are missing; Python-only string methods beyond the library's set.",
      "",
    ];
    writeFileSync(REPORT, lines.join("\n"));

    const unexplained = mismatches.filter((row) => !EXPLAINED_MISMATCHES[row.id]);
    expect(unexplained, `unexplained mismatches (see ${REPORT})`).toEqual([]);
    const stale = Object.keys(EXPLAINED_MISMATCHES).filter((id) => !mismatches.some((row) => row.id === id));
    expect(stale, "explained mismatches that now match: remove them and raise MATCH_FLOOR").toEqual([]);
    expect(matches.length).toBeGreaterThanOrEqual(MATCH_FLOOR);
  });
});
