#!/usr/bin/env node
// The `modelyard` command. The CLI is TypeScript, run through tsx so no separate build is needed.
import { register } from "tsx/esm/api";

// React and React Router pick their development or production builds from NODE_ENV when first
// loaded; unset meant development builds under `npm start`, several times slower to render.
process.env.NODE_ENV ??= "production";

// serve stops the loader before it imports the built server: tsx would otherwise rewrite the
// bundle's dynamic imports and attach an inline source map that Node keeps parsed for the
// process's life (docs/decisions/0030-serve-loads-the-build-without-tsx.md).
const stopTypeScript = register();
const { runCli } = await import("../cli/main.ts");
runCli(process.argv.slice(2), { stopTypeScript });
