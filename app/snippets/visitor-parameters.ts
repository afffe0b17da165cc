/**
 * A task widget's parameters written into @huggingface/inference 3.13.1's snippets, which take
 * none for non-chat tasks (each template prints a fixed example). Each client gets them in the
 * form it really accepts (ADR 0026):
 * - huggingface_hub: keyword arguments of the task method, under the names its signature uses;
 *   what the method has no argument for goes in `extra_body` where it has one, and is otherwise
 *   named in a comment rather than passed (Python would refuse an unknown keyword).
 * - huggingface.js: `parameters: {…}` in the task function's arguments. Where the template sends
 *   a file as `data`, 3.13.1 makes the file the whole body and drops `parameters`, so a comment
 *   says so instead.
 * - Raw HTTP (fetch, requests, cURL): a body in the HF Inference form (with `inputs`) gets
 *   `"parameters": {…}` beside `inputs`; a provider's own body (no `inputs`) gets them spread at
 *   its top level, or inside replicate's `input`, as the 3.13.1 provider helpers build it. A raw
 *   file body (fetch as snippet-corrections.ts writes it too) cannot carry them: a comment says so.
 * - fal_client: beside the prompt in `arguments`, as fal takes them.
 * The rest of the library's text is left exactly as it was.
 */
import type { InferenceSnippetLanguage } from "@huggingface/tasks";

export type ParameterValue = string | number | boolean | readonly string[];
export type VisitorParameters = Readonly<Record<string, ParameterValue>>;

/**
 * huggingface_hub InferenceClient task methods: the keyword arguments each takes for the task's
 * spec parameters, and whether it has `extra_body` for the rest (read from huggingface_hub's
 * inference/_client.py; `image_to_image` also takes **kwargs).
 */
const HUB_METHODS: Readonly<Record<string, { kwargs: readonly string[] | "any"; extraBody: boolean }>> = {
  audio_classification: { kwargs: ["top_k", "function_to_apply"], extraBody: false },
  audio_to_audio: { kwargs: [], extraBody: false },
  automatic_speech_recognition: { kwargs: [], extraBody: true },
  document_question_answering: {
    kwargs: ["doc_stride", "handle_impossible_answer", "lang", "max_answer_len", "max_question_len", "max_seq_len", "top_k", "word_boxes"],
    extraBody: false,
  },
  feature_extraction: { kwargs: ["normalize", "prompt_name", "truncate", "truncation_direction", "dimensions", "encoding_format"], extraBody: false },
  fill_mask: { kwargs: ["targets", "top_k"], extraBody: false },
  image_classification: { kwargs: ["function_to_apply", "top_k"], extraBody: false },
  image_segmentation: { kwargs: ["mask_threshold", "overlap_mask_area_threshold", "subtask", "threshold"], extraBody: false },
  image_to_image: { kwargs: "any", extraBody: false },
  image_to_text: { kwargs: [], extraBody: false },
  object_detection: { kwargs: ["threshold"], extraBody: false },
  question_answering: {
    kwargs: ["align_to_words", "doc_stride", "handle_impossible_answer", "max_answer_len", "max_question_len", "max_seq_len", "top_k"],
    extraBody: false,
  },
  sentence_similarity: { kwargs: [], extraBody: false },
  summarization: { kwargs: ["clean_up_tokenization_spaces", "generate_parameters", "truncation"], extraBody: false },
  table_question_answering: { kwargs: ["padding", "sequential", "truncation"], extraBody: false },
  tabular_classification: { kwargs: [], extraBody: false },
  tabular_regression: { kwargs: [], extraBody: false },
  text_classification: { kwargs: ["top_k", "function_to_apply"], extraBody: false },
  text_generation: {
    kwargs: [
      "adapter_id", "best_of", "decoder_input_details", "details", "do_sample", "frequency_penalty", "grammar", "max_new_tokens",
      "repetition_penalty", "return_full_text", "seed", "stop", "temperature", "top_k", "top_n_tokens", "top_p", "truncate",
      "typical_p", "watermark",
    ],
    extraBody: false,
  },
  text_to_image: { kwargs: ["negative_prompt", "height", "width", "num_inference_steps", "guidance_scale", "scheduler", "seed"], extraBody: true },
  text_to_speech: {
    kwargs: [
      "do_sample", "early_stopping", "epsilon_cutoff", "eta_cutoff", "max_length", "max_new_tokens", "min_length", "min_new_tokens",
      "num_beam_groups", "num_beams", "penalty_alpha", "temperature", "top_k", "top_p", "typical_p", "use_cache",
    ],
    extraBody: true,
  },
  text_to_video: { kwargs: ["guidance_scale", "negative_prompt", "num_frames", "num_inference_steps", "seed"], extraBody: true },
  token_classification: { kwargs: ["aggregation_strategy", "ignore_labels", "stride"], extraBody: false },
  translation: { kwargs: ["src_lang", "tgt_lang", "clean_up_tokenization_spaces", "truncation", "generate_parameters"], extraBody: false },
  visual_question_answering: { kwargs: ["top_k"], extraBody: false },
  zero_shot_classification: { kwargs: ["candidate_labels", "multi_label", "hypothesis_template"], extraBody: false },
  zero_shot_image_classification: { kwargs: ["candidate_labels", "hypothesis_template"], extraBody: false },
};

type Json = ParameterValue | { readonly [key: string]: Json } | readonly Json[] | null;

const isRecord = (v: unknown): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A Python literal: JSON's strings and numbers are Python's too; true/false/null are not. */
export function pythonLiteral(value: Json): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v: Json) => pythonLiteral(v)).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`).join(", ")}}`;
}

/** A JS object literal in the library's own style (`{ num_inference_steps: 5 }`). */
// JSON leaves U+2028 and U+2029 raw, and JavaScript reads both as line breaks: inside a `//`
// comment (the parameters of a file-body call) a visitor's value would end the comment.
const jsString = (v: string | number | boolean | null): string => JSON.stringify(v).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

export function jsLiteral(value: Json): string {
  if (value === null || typeof value !== "object") return jsString(value);
  if (Array.isArray(value)) return `[${value.map((v: Json) => jsLiteral(v)).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsString(k)}: ${jsLiteral(v)}`).join(", ")} }`;
}

/** JSON on one line with a space after each colon and comma, as 3.13.1's one-line cURL bodies are written. */
function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`).join(", ")}}`;
  return JSON.stringify(value);
}

/** Index of the bracket closing the one at `open`, skipping double-quoted strings; -1 if none. */
function closingIndex(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Where the value of the member `key` (a sticky regex matching the key and its colon) starts in
 * an object literal's body, looking at depth 0 only; -1 when the body has no such member.
 */
function topLevelValueStart(body: string, key: RegExp): number {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? "";
    const startsToken = c === '"' || (/[A-Za-z_$]/.test(c) && !/[\w$]/.test(body[i - 1] ?? ""));
    if (depth === 0 && startsToken) {
      key.lastIndex = i;
      const m = key.exec(body);
      if (m) return i + m[0].length;
    }
    if (c === '"') {
      for (i++; i < body.length && body[i] !== '"'; i++) if (body[i] === "\\") i++;
    } else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
  }
  return -1;
}

/** The object literal's text with one more member before its closing brace at `close`. */
function addMember(code: string, close: number, member: string): string {
  let p = close - 1;
  while (p >= 0 && /\s/.test(code[p] ?? "")) p--;
  const last = code[p];
  const insert = last === "," ? ` ${member},` : last === "{" ? ` ${member}` : `, ${member}`;
  return code.slice(0, p + 1) + insert + code.slice(p + 1);
}

/** A comment line put above the line holding `index`, with that line's indentation. */
function commentAbove(code: string, index: number, comment: string): string {
  const lineStart = code.lastIndexOf("\n", index) + 1;
  const indent = /^[ \t]*/.exec(code.slice(lineStart))?.[0] ?? "";
  return `${code.slice(0, lineStart)}${indent}${comment}\n${code.slice(lineStart)}`;
}

function pythonHub(code: string, parameters: VisitorParameters): string {
  const call = /client\.(\w+)\(/.exec(code);
  if (!call) return code;
  const method = call[1] ?? "";
  const accepts = HUB_METHODS[method];
  const kwargs: string[] = [];
  const extra: Record<string, ParameterValue> = {};
  const unsupported: Record<string, ParameterValue> = {};
  for (const [k, v] of Object.entries(parameters)) {
    if (accepts && (accepts.kwargs === "any" || accepts.kwargs.includes(k))) kwargs.push(`${k}=${pythonLiteral(v)}`);
    else if (accepts?.extraBody) extra[k] = v;
    else unsupported[k] = v;
  }
  if (Object.keys(extra).length > 0) kwargs.push(`extra_body=${pythonLiteral(extra)}`);
  const note = Object.keys(unsupported).length > 0 ? `# client.${method}() has no argument for ${pythonLiteral(unsupported)}` : null;
  const open = call.index + call[0].length - 1;
  const close = closingIndex(code, open);
  if (close < 0) return code;
  if (code.slice(open, close).includes("\n")) {
    // Multi-line call: one argument per line before the closing parenthesis, as the template writes them.
    const lines = [...kwargs.map((k) => `    ${k},`), ...(note ? [`    ${note}`] : [])];
    if (lines.length === 0) return code;
    const lineStart = code.lastIndexOf("\n", close) + 1;
    return `${code.slice(0, lineStart)}${lines.join("\n")}\n${code.slice(lineStart)}`;
  }
  let out = kwargs.length > 0 ? `${code.slice(0, close)}, ${kwargs.join(", ")}${code.slice(close)}` : code;
  if (note) out = commentAbove(out, call.index, note);
  return out;
}

/** `parameters` replaced or added in a JS object literal whose braces are at `open` and its match. */
function jsWithParameters(code: string, open: number, parameters: VisitorParameters, hfForm: boolean): string {
  const close = closingIndex(code, open);
  if (close < 0) return code;
  const body = code.slice(open + 1, close);
  const literal = jsLiteral(parameters);
  if (hfForm) {
    const at = topLevelValueStart(body, /parameters:\s*/y);
    if (at >= 0) {
      const valueOpen = open + 1 + at;
      const valueClose = closingIndex(code, valueOpen);
      if (valueClose < 0) return code;
      return code.slice(0, valueOpen) + literal + code.slice(valueClose + 1);
    }
    return addMember(code, close, `parameters: ${literal}`);
  }
  // A provider's own body: replicate nests the prompt in `input`; the others take parameters at the top level.
  const input = topLevelValueStart(body, /input:\s*/y);
  if (input >= 0 && code[open + 1 + input] === "{") return jsWithMembers(code, open + 1 + input, parameters);
  return jsWithMembers(code, open, parameters);
}

function jsWithMembers(code: string, open: number, parameters: VisitorParameters): string {
  let out = code;
  for (const [k, v] of Object.entries(parameters)) {
    const close = closingIndex(out, open);
    if (close < 0) return code;
    out = addMember(out, close, `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsString(k)}: ${jsLiteral(v)}`);
  }
  return out;
}

function jsFetch(code: string, parameters: VisitorParameters): string {
  const call = code.lastIndexOf("query({");
  if (call < 0) {
    // A file-input task's fetch (snippet-corrections.ts) sends the file as the whole body.
    const raw = /^query\(/m.exec(code);
    return raw ? commentAbove(code, raw.index, `// The file is the whole request body here, so it cannot carry these parameters: ${jsLiteral(parameters)}`) : code;
  }
  const open = call + "query(".length;
  const close = closingIndex(code, open);
  const hfForm = close >= 0 && topLevelValueStart(code.slice(open + 1, close), /inputs:\s*/y) >= 0;
  return jsWithParameters(code, open, parameters, hfForm);
}

function huggingfaceJs(code: string, parameters: VisitorParameters): string {
  const call = /await client\.\w+\(\{/.exec(code);
  if (!call) return code;
  const open = call.index + call[0].length - 1;
  if (/^\s*data,$/m.test(code.slice(open, closingIndex(code, open)))) {
    return commentAbove(code, call.index, `// @huggingface/inference 3.13.1 sends \`data\` as the whole request body, so it cannot carry these parameters: ${jsLiteral(parameters)}`);
  }
  const close = closingIndex(code, open);
  if (close < 0) return code;
  const at = topLevelValueStart(code.slice(open + 1, close), /parameters:\s*/y);
  if (at >= 0) return jsWithParameters(code, open, parameters, true);
  // One property per line, indented as the template's own `model:` line.
  const indent = /\n([ \t]+)model:/.exec(code.slice(open, close))?.[1] ?? "\t";
  const lineStart = code.lastIndexOf("\n", close) + 1;
  return `${code.slice(0, lineStart)}${indent}parameters: ${jsLiteral(parameters)},\n${code.slice(lineStart)}`;
}

function pythonRequests(code: string, parameters: VisitorParameters): string {
  const call = /query\(\{\n/.exec(code);
  if (!call) {
    const raw = /^\w+ = query\(/m.exec(code);
    return raw ? commentAbove(code, raw.index, `# The file is the whole request body here, so it cannot carry these parameters: ${pythonLiteral(parameters)}`) : code;
  }
  const open = call.index + "query(".length;
  const close = closingIndex(code, open);
  if (close < 0) return code;
  const body = code.slice(open + 1, close);
  const paramsAt = topLevelValueStart(body, /"parameters":\s*/y);
  if (paramsAt >= 0) {
    const valueOpen = open + 1 + paramsAt;
    const valueClose = closingIndex(code, valueOpen);
    if (valueClose < 0) return code;
    return code.slice(0, valueOpen) + pythonLiteral(parameters) + code.slice(valueClose + 1);
  }
  const entries: Array<[string, Json]> = topLevelValueStart(body, /"inputs":\s*/y) >= 0 ? [["parameters", parameters]] : Object.entries(parameters);
  const lineStart = code.lastIndexOf("\n", close) + 1;
  // The template's last entry may lack a trailing comma (a JSON body printed as a dict).
  let before = code.slice(0, lineStart - 1);
  if (!/[,{]\s*$/.test(before)) before += ",";
  return `${before}\n${entries.map(([k, v]) => `    ${JSON.stringify(k)}: ${pythonLiteral(v)},`).join("\n")}\n${code.slice(lineStart)}`;
}

function falClient(code: string, parameters: VisitorParameters): string {
  const at = code.indexOf("arguments={");
  if (at < 0) return code;
  const open = at + "arguments=".length;
  const close = closingIndex(code, open);
  if (close < 0) return code;
  const lineStart = code.lastIndexOf("\n", close) + 1;
  const lines = Object.entries(parameters).map(([k, v]) => `        ${JSON.stringify(k)}: ${pythonLiteral(v)},`);
  return `${code.slice(0, lineStart)}${lines.join("\n")}\n${code.slice(lineStart)}`;
}

const unquoteShell = (s: string) => s.replaceAll(`'\\''`, "'");
const quoteShell = (s: string) => s.replaceAll("'", `'\\''`);

function curl(code: string, parameters: VisitorParameters): string {
  const start = code.indexOf("-d '");
  if (start < 0) {
    const binary = code.indexOf("--data-binary");
    return binary >= 0 ? commentAbove(code, 0, `# The file is the whole request body here, so it cannot carry these parameters: ${compactJson(parameters)}`) : code;
  }
  const from = start + "-d '".length;
  let end = from;
  for (;;) {
    end = code.indexOf("'", end);
    if (end < 0) return code;
    if (code.startsWith(`'\\''`, end)) end += 4;
    else break;
  }
  const raw = unquoteShell(code.slice(from, end));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return code;
  }
  if (!isRecord(body)) return code;
  let next: Record<string, Json>;
  if ("inputs" in body) next = { ...body, parameters };
  else if (isRecord(body["input"])) next = { ...body, input: { ...body["input"], ...parameters } };
  else next = { ...body, ...parameters };
  // Written back as 3.13.1 writes it: its indented multi-line form, or one line.
  const text = raw.includes("\n") ? `{\n${JSON.stringify(next, null, 4).split("\n").slice(1, -1).map((l) => `    ${l}`).join("\n")}\n    }` : compactJson(next);
  return code.slice(0, from) + quoteShell(text) + code.slice(end);
}

/**
 * The library's snippet for one client with the visitor's parameters in it; unchanged when there
 * are none. Chat snippets take their settings through the library itself and never come here.
 */
export function withVisitorParameters(code: string, language: InferenceSnippetLanguage, client: string, parameters: VisitorParameters): string {
  if (Object.keys(parameters).length === 0) return code;
  if (language === "python" && client === "huggingface_hub") return pythonHub(code, parameters);
  if (language === "python" && client === "requests") return pythonRequests(code, parameters);
  if (language === "python" && client === "fal_client") return falClient(code, parameters);
  if (language === "js" && client === "huggingface.js") return huggingfaceJs(code, parameters);
  if (language === "js" && client === "fetch") return jsFetch(code, parameters);
  if (language === "sh" && client === "curl") return curl(code, parameters);
  return code;
}
