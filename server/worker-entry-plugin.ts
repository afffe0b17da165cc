import path from "node:path";
import type { Plugin } from "vite";

// `new URL("./x.ts", import.meta.url)`: a TypeScript module named by URL, as worker threads are.
const TS_MODULE_URL = /\bnew\s+URL\s*\(\s*(["'])(\.{1,2}\/[^"'`\n]+\.ts)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Server code starts worker threads from their TypeScript entry files, named with
 * `new URL("./entry.ts", import.meta.url)`. In the server build this plugin emits each such file
 * as an entry chunk of its own, `<name>.js` beside the server's entry (its imports bundled or
 * shared with the server like any other module), and points the URL at the emitted JavaScript, so the built server needs no sources.
 * Vite's own `new Worker(new URL(…))` handling is for browser workers only.
 */
export function workerEntryPlugin(): Plugin {
  return {
    name: "modelyard:worker-entries",
    apply: "build",
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    async transform(code, id) {
      if (!code.includes("import.meta.url")) return null;
      const matches = [...code.matchAll(TS_MODULE_URL)];
      if (matches.length === 0) return null;
      let out = "";
      let last = 0;
      for (const match of matches) {
        const specifier = match[2] ?? "";
        const resolved = await this.resolve(specifier, id);
        if (!resolved) this.error(`Cannot find the worker entry ${specifier} named in ${id}`);
        // A fixed name: the server's own entry has one too (index.js), which a pattern would reuse.
        const reference = this.emitFile({ type: "chunk", id: resolved.id, fileName: `${path.basename(specifier, ".ts")}.js` });
        out += `${code.slice(last, match.index)}new URL(import.meta.ROLLUP_FILE_URL_${reference})`;
        last = match.index + match[0].length;
      }
      return { code: out + code.slice(last), map: null };
    },
  };
}
