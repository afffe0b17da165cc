import type { ReactNode } from "react";
import { data, isRouteErrorResponse, useRouteError } from "react-router";

/** A page a 404 offers instead of the one asked for ("Did you mean …"). */
export interface Suggestion {
  href: string;
  label: string;
}

/** What every not-found carries to the boundary: the visitor's message and, maybe, close matches. */
export interface NotFoundBody {
  message: string;
  suggestions: Suggestion[];
}

/**
 * The one way a loader says "not found": `throw notFound("No model 'x' in this catalogue.", suggestions)`.
 * The boundary below reads the suggestions as typed data, so nothing parses them back out of text.
 */
export function notFound(message: string, suggestions: readonly Suggestion[] = []) {
  return data<NotFoundBody>({ message, suggestions: [...suggestions] }, { status: 404 });
}

type StatusHandler = (info: { status: number; message: string; suggestions: Suggestion[] }) => ReactNode;

/**
 * The one error boundary every route uses. 4xx responses show their message (written for the
 * visitor); anything else shows a generic apology and never a stack trace. A 404 thrown with
 * `notFound` lists its suggestions unless a handler renders them itself.
 */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (typeof document !== "undefined" && !isRouteErrorResponse(error)) console.error(error);
  if (isRouteErrorResponse(error)) {
    const message = messageOf(error.data) ?? error.statusText;
    const suggestions = suggestionsOf(error.data);
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler({ status: error.status, message, suggestions })}</>;
    return (
      <ErrorPanel
        title={error.status === 404 ? "Page not found" : `${error.status} ${error.statusText || "Error"}`}
        message={message || "The request could not be completed."}
      >
        <SuggestionList suggestions={suggestions} />
      </ErrorPanel>
    );
  }
  return <ErrorPanel title="Something went wrong" message="An unexpected error occurred while rendering this page. Please try again." />;
}

/** A loader throws `data("…")` or `data({ message: "…", … })`; either way the visitor reads the message. */
function messageOf(body: unknown): string | null {
  if (typeof body === "string") return body;
  if (typeof body === "object" && body !== null && "message" in body && typeof body.message === "string") return body.message;
  return null;
}

function suggestionsOf(body: unknown): Suggestion[] {
  if (typeof body !== "object" || body === null || !("suggestions" in body) || !Array.isArray(body.suggestions)) return [];
  return body.suggestions.filter(
    (s: unknown): s is Suggestion => typeof s === "object" && s !== null && "href" in s && "label" in s && typeof s.href === "string" && typeof s.label === "string",
  );
}

/** "Did you mean:" and a link per suggestion; nothing when there are none. */
export function SuggestionList({ suggestions }: { suggestions: readonly Suggestion[] }) {
  if (suggestions.length === 0) return null;
  return (
    <div className="mt-6">
      <p className="font-medium">Did you mean:</p>
      <ul className="mt-2 space-y-1" data-suggestions="">
        {suggestions.map((s) => (
          <li key={s.href}>
            <a href={s.href} className="text-indigo-700 hover:underline dark:text-indigo-300">
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorPanel({ title, message, children }: { title: string; message: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-gray-600 dark:text-gray-300">{message}</p>
      {children}
      <p className="mt-8">
        <a href="/" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Go to the home page
        </a>
      </p>
    </div>
  );
}
