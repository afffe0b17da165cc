import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
  ssr: {
    // Native and server-only packages stay external so the SSR bundle loads them from node_modules.
    external: ["better-sqlite3", "pg", "shiki", "@huggingface/inference"],
  },
});
