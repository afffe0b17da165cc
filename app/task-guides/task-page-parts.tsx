import type { ReactNode } from "react";
import { ErrorPanel, GeneralErrorBoundary, SuggestionList } from "#app/ui/general-error-boundary.tsx";
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

/** The task page's error boundary: a 404 lists the closest tasks and links to all of them. */
export function TaskErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ message, suggestions }) => (
          <ErrorPanel title="Task not found" message={message}>
            <SuggestionList suggestions={suggestions} />
            <p className="mt-6">
              <a href="/tasks" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                See all tasks
              </a>
            </p>
          </ErrorPanel>
        ),
      }}
    />
  );
}
