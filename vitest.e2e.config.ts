import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Browser journeys: each file starts its own server on a free port with a temporary database (and
// its own Chromium), so two files can run at once. One at a time, the suite had grown to 17 minutes
// on a 2-core machine, most of it spent waiting on page loads rather than on the CPU.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/support/global-setup.ts"],
    exclude: ["**/node_modules/**", "**/*.data.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
