import type { Route } from "./+types/spaces._index";
import { GeneralErrorBoundary } from "#app/components/general-error-boundary.tsx";
import { getDb } from "#app/db/db.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Spaces · Modelyard" }];

export async function loader() {
  const { db } = getDb();
  const spaces = await db.selectFrom("spaces").select(["id", "sdk"]).orderBy("id").limit(100).execute();
  return { spaces };
}

export default function Spaces({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Spaces</h1>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Demos hosted on the Hugging Face Hub that use catalogue models.</p>
      <ul className="mt-6 space-y-1">
        {loaderData.spaces.map((s) => (
          <li key={s.id} className="font-mono text-sm">
            {s.id}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
