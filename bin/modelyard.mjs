#!/usr/bin/env node
// The `modelyard` command. The CLI is TypeScript, run through tsx so no separate build is needed.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
