import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { inferenceHandlerPlugin } from "./server/dev-inference-plugin.ts";
import { workerEntryPlugin } from "./server/worker-entry-plugin.ts";

export default defineConfig({
  plugins: [inferenceHandlerPlugin(), tailwindcss(), reactRouter(), tsconfigPaths(), workerEntryPlugin()],
  ssr: {
    // Native and server-only packages stay external so the SSR bundle loads them from node_modules.
    external: ["better-sqlite3", "pg", "shiki", "@huggingface/inference"],
  },
});
