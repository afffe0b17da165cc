import { z } from "zod";

// Zod compiles object parsers with `new Function` unless told not to, and only probes whether it
// may (a try/catch) the first time an object schema is built. Under this site's CSP (no
// 'unsafe-eval') that probe is refused and reported as a violation, so in the browser zod runs
// without its compiled fast path. Imported first by root.tsx, before any module builds a schema.
if (typeof document !== "undefined") z.config({ jitless: true });
