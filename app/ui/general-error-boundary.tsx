import type { ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";

type StatusHandler = (info: { status: number; message: string }) => ReactNode;

/**
 * The one error boundary every route uses. 4xx responses show their message (written for the
 * visitor); anything else shows a generic apology and never a stack trace.
 */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (typeof document !== "undefined" && !isRouteErrorResponse(error)) console.error(error);
  if (isRouteErrorResponse(error)) {
    const message = messageOf(error.data) ?? error.statusText;
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler({ status: error.status, message })}</>;
    return (
      <ErrorPanel
        title={error.status === 404 ? "Page not found" : `${error.status} ${error.statusText || "Error"}`}
        message={message || "The request could not be completed."}
      />
    );
  }
  return <ErrorPanel title="Something went wrong" message="An unexpected error occurred while rendering this page. Please try again." />;
}

/** A loader throws `data("…")` or `data({ message: "…", … })`; either way the visitor reads the message. */
function messageOf(data: unknown): string | null {
  if (typeof data === "string") return data;
  if (typeof data === "object" && data !== null && "message" in data && typeof data.message === "string") return data.message;
  return null;
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
