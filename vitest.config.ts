import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Unit and database tests. Browser journeys live in tests/e2e and use vitest.e2e.config.ts.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "server/**/*.test.ts", "tests/simulators/**/*.test.ts", "tests/snippets-run/**/*.test.ts", "scripts/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.data.test.ts"],
    environment: "node",
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
