import type { ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { ErrorPanel, GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { HeadingWithAnchor } from "#app/markdown/heading-anchor.tsx";

/** A titled section of a task page; its heading carries the same anchor as guide headings. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-8 first:mt-0">
      <HeadingWithAnchor level={2} id={id} className="scroll-mt-20 text-lg font-semibold">
        {title}
      </HeadingWithAnchor>
      <div className="mt-3">{children}</div>
    </section>
  );
}

type NotFoundBody = { message: string; suggestions: Array<{ id: string; name: string }> };

function isNotFoundBody(value: unknown): value is NotFoundBody {
  if (typeof value !== "object" || value === null || !("message" in value) || !("suggestions" in value)) return false;
  const { message, suggestions } = value;
  return (
    typeof message === "string" &&
    Array.isArray(suggestions) &&
    suggestions.every(
      (s: unknown) => typeof s === "object" && s !== null && "id" in s && "name" in s && typeof s.id === "string" && typeof s.name === "string",
    )
  );
}

/** The task page's error boundary: a 404 lists the closest task ids. */
export function TaskErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404 && isNotFoundBody(error.data)) {
    const { message, suggestions } = error.data;
    return (
      <ErrorPanel title="Task not found" message={message}>
        {suggestions.length > 0 ? (
          <div className="mt-6">
            <p className="font-medium">Did you mean:</p>
            <ul className="mt-2 space-y-1" data-suggestions="">
              {suggestions.map((s) => (
                <li key={s.id}>
                  <a href={`/tasks/${s.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                    {s.name}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="mt-6">
          <a href="/tasks" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            See all tasks
          </a>
        </p>
      </ErrorPanel>
    );
  }
  return <GeneralErrorBoundary />;
}
