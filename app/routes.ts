import { type RouteConfig, index, route } from "@react-router/dev/routes";

// One module per URL. Static first segments win over the catch-all model routes, and every
// segment used here is also reserved for model ids (see app/catalog/model-id.ts).
export default [
  index("routes/_index.tsx"),
  route("models", "routes/models._index.tsx"),
  route("tasks", "routes/tasks._index.tsx"),
  route("tasks/:task", "routes/tasks.$task.tsx"),
  route("spaces", "routes/spaces._index.tsx"),
  route("spaces/:org/:name", "routes/spaces.$org.$name.tsx"),
  route("theme", "routes/theme.ts"),
  route("healthz", "routes/healthz.ts"),
  route("api/tasks", "routes/api.tasks.ts"),
  route("api/inference", "routes/api.inference.ts"),
  route("playground", "routes/playground._index.tsx"),
  route("playground/:org/:name", "routes/playground.$org.$name.tsx"),
  route("settings", "routes/settings.tsx"),
  route("api/snippets", "routes/api.snippets.ts"),
  route("api/chat-template/render", "routes/api.chat-template.render.ts"),
  route("api/models", "routes/api.models.ts"),
  route("api/models/*", "routes/api.models.$.ts"),
  route("api/compare/candidates", "routes/api.compare.candidates.ts"),
  route("api/compare/snippet", "routes/api.compare.snippet.ts"),
  route("api/*", "routes/api.$.ts"),
  route("chat-template", "routes/chat-template.tsx"),
  route("compare", "routes/compare.tsx"),
  route("schemas/session-v1.json", "routes/schemas.session-v1.ts"),
  route(":org/:name", "routes/$org.$name.tsx"),
  route(":name", "routes/$name.tsx"),
  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
