import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// The data suite (`npm run test:data`): tests over the large shared data (MODELYARD_SHARED_DATA,
// default ../shared/data), named *.data.test.ts. The browser ones need a build, which
// scripts/test-data.mjs makes first.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["app/**/*.data.test.ts", "tests/**/*.data.test.ts"],
    environment: "node",
    testTimeout: 300_000,
    hookTimeout: 240_000,
    pool: "forks",
    // The 760k-row import holds one core for two minutes; the card corpora run beside it on the other.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
