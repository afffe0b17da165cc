// @ts-check
// Type-aware lint plus the import boundaries of docs/decisions/0020-lint-boundaries.md.
import { builtinModules } from "node:module";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Lower layers: anything in app/ may import them, and they import only each other. */
const SHARED = ["catalog", "db", "ui", "utils"];

/**
 * Feature folders. `markdown` is one too, but every feature may import it (see `openTo`).
 * A feature imports another feature only through an edge in `FEATURE_EDGES`.
 */
const FEATURES = ["auth", "catalog-search", "chat-template", "compare", "demos", "import", "inference", "markdown", "model-page", "openai-api", "snippets", "task-guides", "tasks"];

/** Features that every other feature (not the shared layers) may import whole. */
const OPEN_FEATURES = ["markdown"];

/**
 * The allowed dependencies between features, as they are today: importer → list of the
 * other feature's modules it may import (paths under app/<feature>/). Everything else in that
 * feature is its internals. Add an edge here, with a line in ADR 0020, rather than an
 * eslint-disable comment.
 */
const FEATURE_EDGES = {
  // The model page composes the snippets panel, the chat-template tab and live Hub details.
  "model-page": {
    snippets: ["inference-panel.server.ts", "library-snippets.ts", "local-app-snippets.ts", "providers.ts", "provider-label.ts"],
    "chat-template": ["model-tab.server.ts", "lab-sides.ts", "preview-state.ts"],
    import: ["live-details.server.ts", "hub-client.server.ts"],
  },
  // The chat demo streams through the gateway's event union, asks it which endpoints serve a
  // model and with which parameters, and names providers the way the snippets do.
  demos: {
    // Whether this visitor may run a demo on the site's keys, or must sign in first (ADR 0038).
    auth: ["viewer.ts", "key-note.tsx"],
    inference: ["stream-events.ts", "credentials.server.ts", "endpoints.server.ts", "hub-lookups.server.ts", "task-parameters.server.ts", "media-types.ts"],
    snippets: ["model-data.ts", "providers.ts", "provider-label.ts"],
    tasks: ["task-records.ts", "task-output.ts"],
  },
  // One record per task (ADR 0044): its demo module (widget and /compare output) is loaded lazily
  // from demos/ (a dynamic import, which the rule cannot see: any task's module there); it names
  // the media kinds the gateway takes, and its library call answers bad inputs as the gateway does.
  tasks: {
    demos: ["shared/widget-frame.tsx"],
    inference: ["media-types.ts", "errors.server.ts"],
  },
  // /compare runs the chat demo's and the widgets' pieces side by side (their providers, runner,
  // renderers and parameter specs), reads the gateway's deadline, offers columns through catalogue
  // search, and gives each column the snippets builder's code.
  compare: {
    demos: ["chat/chat-demo.tsx", "chat/demo-info.ts", "chat/demo-info.server.ts", "chat/markdown.tsx", "task-widget-info.server.ts", "shared/run-inference.ts", "shared/label-score-chart.tsx", "text/output-shapes.ts",
      // The task widgets' starting inputs and input fields; their output components come through the task records.
      "shared/default-inputs.ts", "shared/starting-inputs.ts", "shared/widget-info.ts", "shared/text-input.tsx", "shared/table-input.tsx", "tabular/predictions.ts", "shared/parameters-form.tsx", "shared/parameter-values.ts", "shared/demo-error.tsx"],
    tasks: ["task-records.ts", "task-output.ts"],
    inference: ["credentials.server.ts", "endpoints.server.ts", "gateway-config.server.ts", "task-parameters.server.ts"],
    "catalog-search": ["listing-params.ts", "search.server.ts", "snapshot.server.ts"],
    snippets: ["inference-snippets.ts", "model-data.ts", "mask-token-note.tsx"],
  },
  // The snippets panel offers the providers a task's record names.
  snippets: {
    tasks: ["task-records.ts"],
  },
  // The gateway's task list is the task guides' payload.
  // The gateway asks who is calling and what they may spend (ADR 0038).
  inference: {
    "task-guides": ["tasks.server.ts"],
    tasks: ["task-records.ts", "task-calls.server.ts"],
    auth: ["access.server.ts", "auth-config.server.ts", "client-address.server.ts", "policy.server.ts"],
  },
  // /v1 is the gateway under OpenAI's bodies and errors (ADR 0040): it runs the gateway with its
  // own parser, plan and wording, asks who is calling for /v1/models, and writes this server's code.
  "openai-api": {
    inference: ["credentials.server.ts", "endpoints.server.ts", "errors.server.ts", "gateway.server.ts", "gateway-instance.server.ts", "hub-lookups.server.ts", "multipart.server.ts", "node-adapter.server.ts", "parse-request.server.ts", "request-schema.ts", "run-task.server.ts", "stream.server.ts"],
    auth: ["access.server.ts", "client-address.server.ts", "cross-site.server.ts", "policy.server.ts"],
    snippets: ["openai-compatible-snippets.ts"],
  },
  // Access settings read the same environment shape as the gateway's.
  auth: {
    inference: ["credentials.server.ts"],
  },
  // The Hub client shares the gateway's fetch override; live details validate fetched chat
  // templates (a dynamic import, which the rule cannot see, listed so the edge is on record).
  import: {
    inference: ["hub-fetch.server.ts"],
    "chat-template": ["validate.server.ts"],
  },
};

/** @param {string} s */
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const ROUTES_MESSAGE = "Nothing in app/ imports from app/routes/: move the shared code into a feature, ui/, utils/ or catalog/ and import it from both (ADR 0020).";
const ROUTES_PATTERN = { regex: "^#app/routes/", message: ROUTES_MESSAGE };
const RELATIVE_MESSAGE = "Import with #app/* so the boundary rules can see where the import goes (STYLE.md convention 7).";
const NODE_MESSAGE = "Client-reachable modules must not import Node builtins: put this code in a *.server.ts module (ADR 0020).";
const SERVER_MESSAGE = "Client-reachable modules must not import *.server.ts values (only `import type`, which is erased): move the code out of the .server module or call it from a loader (ADR 0020).";

/** @param {string} from @param {string} to */
function featurePatterns(from, to) {
  const edge = /** @type {Record<string, Record<string, string[]>>} */ (FEATURE_EDGES)[from]?.[to];
  if (!edge) {
    return {
      regex: `^#app/${to}/`,
      message: `Feature ${from}/ may not import feature ${to}/: features share only ${SHARED.join("/, ")}/ and ${OPEN_FEATURES.join(", ")}/; the allowed feature dependencies are FEATURE_EDGES in eslint.config.mjs (ADR 0020).`,
    };
  }
  return {
    regex: `^#app/${to}/(?!(?:${edge.map(escapeRegex).join("|")})$)`,
    message: `${from}/ may import only these modules of ${to}/: ${edge.join(", ")}. The rest is ${to}'s internals; widen FEATURE_EDGES in eslint.config.mjs and ADR 0020 if this is a new public module.`,
  };
}

/** The restricted-import patterns for code in app/<folder>/. @param {string} folder */
function boundaryPatterns(folder) {
  const patterns = [];
  if (folder !== "routes") patterns.push(ROUTES_PATTERN);
  if (SHARED.includes(folder)) {
    for (const to of FEATURES)
      patterns.push({
        regex: `^#app/${to}/`,
        message: `${folder}/ is a shared layer and may not import feature ${to}/: move what both need into ${SHARED.join("/, ")}/ (ADR 0020).`,
      });
  } else if (FEATURES.includes(folder)) {
    for (const to of FEATURES) if (to !== folder && !OPEN_FEATURES.includes(to)) patterns.push(featurePatterns(folder, to));
  }
  return patterns;
}

const NODE_PATTERN = { regex: `^(?:node:|(?:${builtinModules.map(escapeRegex).join("|")})(?:/|$))`, message: NODE_MESSAGE };
const SERVER_PATTERNS = [{ regex: "\\.server(?:\\.tsx?)?$", message: SERVER_MESSAGE, allowTypeImports: true }, NODE_PATTERN];

const TS = "**/*.{ts,tsx}";
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
/** Server-only by place or name; everything else in app/ may end up in the browser bundle. */
const SERVER_ONLY = ["app/**/*.server.ts", "app/**/*.server.tsx", "app/routes/**", "app/db/migrations/**", ...TESTS];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "build.*/**",
      ".lighthouse-build-*/**",
      "node_modules/**",
      "test-results/**",
      ".react-router/**",
      "app/routes/+types/**",
      "data/**",
      "tmp/**",
      // Dot-files are outside the TypeScript project too (tsc's globs skip them).
      "**/.*",
      // Plain-JS entry points (bin/, scripts/*.mjs) are not in the TypeScript project; linting
      // them type-aware would need allowJs across the tree.
      "**/*.{js,mjs,cjs}",
    ],
  },
  {
    files: [TS],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `import { type X }` alone still loads the module under verbatimModuleSyntax; `import type` does not.
      "@typescript-eslint/no-import-type-side-effects": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      // Loaders throw a Response, or react-router's data(), for 4xx (STYLE.md convention 5); React Router catches it.
      "@typescript-eslint/only-throw-error": ["error", { allow: [{ from: "lib", name: "Response" }, { from: "package", package: "undici-types", name: "Response" }, { from: "package", package: "react-router", name: "DataWithResponseInit" }] }],
      // An async function without await is how a fake or a small adapter meets a Promise or
      // AsyncIterable contract; the rule flags those contracts, not bugs.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // No import cycles (ADR 0042): a module that reaches itself again through its imports loads
    // half-initialised. The rule skips type-only imports (they are erased); shared type modules keep
    // those acyclic. The depth bound keeps the walk, and lint time, small: the cycles this code had
    // were 2 to 6 modules long.
    files: [`app/${TS}`, `cli/${TS}`, `server/${TS}`],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver()],
      // The rule reads each imported module itself, and reads only the files these name.
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: { "import-x/no-cycle": ["error", { maxDepth: 8 }] },
  },
  // Import boundaries, one block per folder of app/ (a later block replaces a rule's options, so
  // each block carries the folder's whole list).
  ...[...SHARED, ...FEATURES, "routes"].map((folder) => ({
    files: [`app/${folder}/${TS}`],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": ["error", { patterns: [...boundaryPatterns(folder), { regex: "^\\.\\.?/(?!\\+types/)", message: RELATIVE_MESSAGE }] }],
    },
  })),
  {
    // Tests compose features to build their fixtures (an importer seeds the database), but still
    // never reach into routes from outside them.
    files: TESTS.map((t) => `app/${t}`),
    ignores: ["app/routes/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [ROUTES_PATTERN] }] },
  },
  {
    files: ["app/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [ROUTES_PATTERN] }] },
  },
  {
    files: [`app/${TS}`],
    ignores: SERVER_ONLY.filter((p) => p !== "app/routes/**").concat(["app/entry.server.tsx"]),
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: SERVER_PATTERNS }] },
  },
  {
    // Route modules may import *.server.ts: React Router strips loader and action from the client
    // build, and fails the build if a .server module is still reachable. Node builtins stay behind a
    // .server module all the same.
    // root.tsx is the root route's module, under the same rule.
    files: [`app/routes/${TS}`, "app/root.tsx"],
    ignores: TESTS,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NODE_PATTERN] }] },
  },
);
