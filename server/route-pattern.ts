import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * The route pattern a path is answered by (`/:org/:name`, `/api/models/*`), for labels that must
 * stay few: metrics and the access log name the pattern, never the URL, which carries model ids and
 * searches. Matched against the build's own route tree, so a new route is labelled without a list.
 */
export type RoutePatternOf = (pathname: string) => string;

const V1_ROUTES = new Set(["/v1/models", "/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/images/generations", "/v1/audio/transcriptions", "/v1/audio/speech"]);

export function createRoutePattern(build: ServerBuild): RoutePatternOf {
  const routes = Object.values(build.routes).filter((r) => r !== undefined);
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    routes
      .filter((r) => r.parentId === parentId)
      .map((r): RouteObject => (r.index ? { id: r.id, index: true, path: r.path } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: childrenOf(r.id) }));
  const tree = childrenOf(undefined);
  const patternOf = new Map<string, string>();
  const walk = (list: RouteObject[], prefix: string) => {
    for (const r of list) {
      const joined = r.path ? `${prefix.replace(/\/$/, "")}/${r.path}` : prefix;
      if (r.id) patternOf.set(r.id, joined || "/");
      if (r.children) walk(r.children, joined);
    }
  };
  walk(tree, "");

  return (pathname) => {
    if (pathname === "/api/inference" || pathname === "/metrics") return pathname;
    if (pathname.startsWith("/v1/")) {
      const path = pathname.replace(/\/+$/, "");
      return V1_ROUTES.has(path) ? path : path.startsWith("/v1/models/") ? "/v1/models/:id" : "/v1/*";
    }
    if (pathname.startsWith("/assets/")) return "/assets/*";
    // Single-fetch data requests name the page they load for: /models.data, /_root.data.
    let path = pathname;
    if (path.endsWith(".data")) path = path === "/_root.data" ? "/" : path.slice(0, -".data".length).replace(/\/_root$/, "/");
    const matches = matchRoutes(tree, path);
    const last = matches?.at(-1);
    return (last?.route.id !== undefined ? patternOf.get(last.route.id) : undefined) ?? "unmatched";
  };
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method, or "other" for a made-up one (a label an attacker could otherwise multiply). */
export function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : "other";
}
