import type { Route } from "./+types/docs.api";
import { HUB_LIST_PARAMETERS } from "#app/catalog-search/views/hub-params.server.ts";
import { buildApiDocs } from "#app/openai-api/api-docs.server.ts";
import { ApiDocsPage } from "#app/openai-api/api-docs-page.tsx";
import { snippetOrigin } from "#app/snippets/inference-panel.server.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";

export const meta: Route.MetaFunction = () => [
  { title: "OpenAI-compatible API · Modelyard" },
  { name: "description", content: "Point the openai SDKs, curl, LangChain or a chat UI at this server's /v1: base URL, tokens, provider routing and errors; and Hub clients at its catalogue: /api/models and its parameters." },
];

export function loader({ request }: Route.LoaderArgs) {
  return { docs: buildApiDocs(snippetOrigin(request.url), HUB_LIST_PARAMETERS) };
}

export default function ApiDocsRoute({ loaderData }: Route.ComponentProps) {
  return <ApiDocsPage docs={loaderData.docs} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
