import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // `modelyard build` writes to a scratch folder and swaps it in, so running servers keep their assets.
  buildDirectory: process.env["MODELYARD_BUILD_DIR"] ?? "build",
} satisfies Config;
