import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Snippet execution tests: each snippet runs in a child Node process or bash against the provider
// simulator, so they are slower than unit tests. Run with:
//   npx vitest run --config tests/snippets-run/vitest.config.ts
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["tests/snippets-run/**/*.test.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxConcurrency: 4,
  },
});
