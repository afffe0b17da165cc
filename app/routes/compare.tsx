import type { Route } from "./+types/compare";
import { ComparePage } from "#app/compare/compare-page.tsx";
import { loadCompare } from "#app/compare/compare.server.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";

export const meta: Route.MetaFunction = ({ data: d }) => [{ title: d ? `Compare · ${d.taskLabel} · Modelyard` : "Compare · Modelyard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadCompare(new URL(request.url), process.env);
}

export default function Compare({ loaderData }: Route.ComponentProps) {
  // Keyed by the setup: a new column or task starts a fresh comparison.
  return <ComparePage key={loaderData.columns.map((c) => `${c.modelId}@${c.route}`).join(" ") + loaderData.task} info={loaderData} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
