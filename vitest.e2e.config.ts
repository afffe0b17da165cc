import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Browser journeys: each file starts its own server on a free port with a temporary database.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.data.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
  },
});
