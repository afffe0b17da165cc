import { ErrorPanel, GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";

export const meta = () => [{ title: "Page not found · Modelyard" }];

export function loader() {
  throw new Response("There is no page at this address.", { status: 404 });
}

export default function NotFound() {
  return <ErrorPanel title="Page not found" message="There is no page at this address." />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
