import os from "node:os";
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
    // KaTeX's stylesheet is imported with `?url`; unprocessed, it yields "" and React warns about an
    // empty href. Only that stylesheet: Tailwind's would cost every test that imports app.css.
    css: { include: [/katex/] },
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a time.
    // Most files wait on child processes, sockets and databases, so two at once took the suite
    // from 5.7 to 3.7 minutes there. Each database test makes its own database, so files never share one.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
