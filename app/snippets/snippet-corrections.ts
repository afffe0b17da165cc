/**
 * Corrections to @huggingface/inference 3.13.1's snippets where its text cannot work as printed
 * (issue 32, item 11). Every other snippet stays the library's text byte for byte.
 *
 * - Tasks whose input is a file (the library's basicImage and basicAudio templates): its fetch
 *   template posts `JSON.stringify({ inputs: "cats.jpg" })` labelled image/jpeg, the file's name
 *   instead of its bytes. hf-inference (and "auto", which uses hf-inference's helper) takes the
 *   bytes as the whole body, as the library's own cURL and requests templates send them; fal-ai
 *   takes JSON with the audio as a `data:` URL in `audio_url`, as 3.13.1's fal-ai helper builds it.
 * - Its huggingface.js template for those tasks calls `fs.readFileSync` without importing `fs`
 *   (a ReferenceError in an ES module): the import is added. For fal-ai it is left out instead:
 *   3.13.1 sends fal-ai only a Blob of audio/mpeg, mp4 or wav (FAL_AI_SUPPORTED_BLOB_TYPES), so
 *   neither the Buffer nor the FLAC example can work there.
 * - Where a provider's body has no `inputs`, some templates print nothing as its value
 *   (`query({ inputs:  })`, `"inputs": ,`): code that does not parse, left out.
 */
import type { InferenceSnippet } from "@huggingface/tasks";

/**
 * Tasks 3.13.1 writes with its basicImage and basicAudio templates, and the Content-Type those
 * templates give the file (the examples are cats.jpg and sample1.flac).
 */
export const FILE_INPUT_TASKS: Readonly<Record<string, string>> = {
  "audio-classification": "audio/flac",
  "audio-to-audio": "audio/flac",
  "automatic-speech-recognition": "audio/flac",
  "image-classification": "image/jpeg",
  "image-segmentation": "image/jpeg",
  "image-to-text": "image/jpeg",
  "object-detection": "image/jpeg",
};

/** The fetch template's last statement, with the example file's name as a JS string literal. */
const FETCH_EXAMPLE_CALL = /^query\(\{ inputs: ("(?:[^"\\\n]|\\.)*") \}\)\.then\(/m;

/** A body member the template printed without a value (JS `inputs:  }`, Python `"inputs": ,`). */
const EMPTY_INPUTS = /\binputs"?:\s*[,}]/;

/** `code` with the one occurrence of `search` replaced; null when it occurs zero or several times. */
function replaceOnce(code: string | null, search: string, replacement: string): string | null {
  if (code === null) return null;
  const at = code.indexOf(search);
  if (at < 0 || code.indexOf(search, at + 1) >= 0) return null;
  return code.slice(0, at) + replacement + code.slice(at + search.length);
}

/** hf-inference's form: the file's bytes are the body, under the template's own Content-Type. */
function fetchSendingBytes(code: string): string | null {
  const call = FETCH_EXAMPLE_CALL.exec(code);
  if (call === null) return null;
  let out = replaceOnce(code, "async function query(data) {", 'import fs from "node:fs";\n\nasync function query(filename) {');
  out = replaceOnce(out, "body: JSON.stringify(data),", "body: fs.readFileSync(filename),");
  return replaceOnce(out, call[0], `query(${call[1] ?? ""}).then(`);
}

/** fal-ai's form: JSON whose `audio_url` is the file as a data: URL. */
function fetchSendingDataUrl(code: string, contentType: string): string | null {
  const call = FETCH_EXAMPLE_CALL.exec(code);
  if (call === null) return null;
  const out = replaceOnce(`import fs from "node:fs";\n\n${code}`, `"Content-Type": "${contentType}",`, '"Content-Type": "application/json",');
  const encoded = `const file = fs.readFileSync(${call[1] ?? ""}).toString("base64");\n\n`;
  return replaceOnce(out, call[0], `${encoded}query({ audio_url: \`data:${contentType};base64,\${file}\` }).then(`);
}

function importingFs(code: string): string | null {
  if (!code.includes("fs.readFileSync(") || /^import fs\b/m.test(code)) return code;
  const line = 'import { InferenceClient } from "@huggingface/inference";';
  return replaceOnce(code, line, `import fs from "node:fs";\n${line}`);
}

function corrected(snippet: InferenceSnippet, task: string | null, provider: string): string | null {
  const { language, client, content } = snippet;
  if (language !== "sh" && EMPTY_INPUTS.test(content)) return null;
  const contentType = task === null ? undefined : FILE_INPUT_TASKS[task];
  if (language === "js" && client === "fetch" && contentType !== undefined) {
    if (provider === "hf-inference" || provider === "auto") return fetchSendingBytes(content);
    if (provider === "fal-ai") return fetchSendingDataUrl(content, contentType);
    return null;
  }
  if (language === "js" && client === "huggingface.js") {
    if (provider === "fal-ai" && contentType !== undefined) return null;
    return importingFs(content);
  }
  return content;
}

/**
 * The library's snippets for `task` (snippetTaskFor's name: "conversational" for chat) and
 * `provider`, corrected where they cannot work as printed, and without those that cannot be
 * corrected. A template that no longer reads as 3.13.1 wrote it is left out, not guessed at.
 */
export function correctSnippets(list: readonly InferenceSnippet[], task: string | null, provider: string): InferenceSnippet[] {
  return list.flatMap((snippet) => {
    const content = corrected(snippet, task, provider);
    return content === null ? [] : [{ ...snippet, content }];
  });
}
