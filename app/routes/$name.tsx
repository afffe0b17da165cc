import type { Route } from "./+types/$name";
import { loadModelPage } from "#app/routes/model-page.server.ts";

// Legacy ids without an organisation (e.g. /gpt2) share the model page's view and boundary.
export { default, ErrorBoundary, meta } from "./$org.$name.tsx";

export async function loader({ params, url, context }: Route.LoaderArgs) {
  return loadModelPage(params.name, url, context);
}
