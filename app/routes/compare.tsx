import type { Route } from "./+types/compare";
import { ComparePage } from "#app/compare/compare-page.tsx";
import { loadCompare } from "#app/compare/compare.server.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { configEnv } from "#app/utils/env.server.ts";

export const meta: Route.MetaFunction = ({ data: d }) => [{ title: d ? `Compare · ${d.taskLabel} · Modelyard` : "Compare · Modelyard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadCompare(new URL(request.url), configEnv());
}

export default function Compare({ loaderData }: Route.ComponentProps) {
  // Keyed by the task only: adding or removing a column keeps the other columns' conversations
  // and outputs (useCompare reconciles its columns with the new setup); a new task starts afresh.
  return <ComparePage key={loaderData.task} info={loaderData} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
