import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // `modelyard build` writes to a scratch folder and swaps it in, so running servers keep their assets.
  buildDirectory: process.env["MODELYARD_BUILD_DIR"] ?? "build",
  // React Router 8's behaviour, opted into now (ADR 0015): loaders get a typed context provider
  // (app/utils/request-context.ts) and the raw request with a normalised `url`.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
