#!/usr/bin/env node
// The `modelyard` command. The CLI is TypeScript, run through tsx so no separate build is needed.
import { register } from "tsx/esm/api";

// React and React Router pick their development or production builds from NODE_ENV when first
// loaded; unset meant development builds under `npm start`, several times slower to render.
process.env.NODE_ENV ??= "production";

register();
await import("../cli/main.ts");
