import { ErrorPanel, GeneralErrorBoundary, notFound } from "#app/ui/general-error-boundary.tsx";

export const meta = () => [{ title: "Page not found · Modelyard" }];

export function loader() {
  throw notFound("There is no page at this address.");
}

export default function NotFound() {
  return <ErrorPanel title="Page not found" message="There is no page at this address." />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
