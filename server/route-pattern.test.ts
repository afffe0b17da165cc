import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { createRoutePattern, methodLabel } from "#server/route-pattern.ts";

// The route tree as the build holds it: the root layout, an index and the app's kinds of route.
const route = (id: string, p: Partial<{ path: string; index: boolean; parentId: string }>) => ({ id, module: {}, caseSensitive: undefined, ...p });
const build = {
  routes: {
    root: route("root", { path: "" }),
    "routes/_index": route("routes/_index", { index: true, parentId: "root" }),
    "routes/models._index": route("routes/models._index", { path: "models", parentId: "root" }),
    "routes/$org.$name": route("routes/$org.$name", { path: ":org/:name", parentId: "root" }),
    "routes/$name": route("routes/$name", { path: ":name", parentId: "root" }),
    "routes/api.models.$": route("routes/api.models.$", { path: "api/models/*", parentId: "root" }),
    "routes/$": route("routes/$", { path: "*", parentId: "root" }),
  },
} as unknown as ServerBuild;

describe("route patterns", () => {
  const patternOf = createRoutePattern(build);
  it("names the pattern, never the URL", () => {
    expect(patternOf("/")).toBe("/");
    expect(patternOf("/models")).toBe("/models");
    expect(patternOf("/meta-llama/Llama-3.3-70B-Instruct")).toBe("/:org/:name");
    expect(patternOf("/gpt2")).toBe("/:name");
    expect(patternOf("/api/models/org/name/tree/main")).toBe("/api/models/*");
    expect(patternOf("/a/b/c/d")).toBe("/*");
  });
  it("names a data request by the page it loads", () => {
    expect(patternOf("/models.data")).toBe("/models");
    expect(patternOf("/_root.data")).toBe("/");
    expect(patternOf("/meta-llama/Llama-3.data")).toBe("/:org/:name");
  });
  it("names the routes answered before React Router", () => {
    expect(patternOf("/api/inference")).toBe("/api/inference");
    expect(patternOf("/metrics")).toBe("/metrics");
    expect(patternOf("/v1/chat/completions")).toBe("/v1/chat/completions");
    expect(patternOf("/v1/models/meta-llama/Llama")).toBe("/v1/models/:id");
    expect(patternOf("/v1/unknown/x")).toBe("/v1/*");
    expect(patternOf("/assets/app-abc.js")).toBe("/assets/*");
  });
  it("keeps made-up methods out of the labels", () => {
    expect(methodLabel("GET")).toBe("GET");
    expect(methodLabel("BREW")).toBe("other");
  });
});
