import type { MouseEvent } from "react";
import { useNavigate } from "react-router";
import { HtmlIsland } from "#app/ui/html-island.tsx";
import type { IslandHtml } from "#app/utils/html-island.ts";

/**
 * Facet values are plain links (a few hundred router <Link>s measurably slow the server render);
 * one handler on the panel turns their clicks into client-side navigations.
 */
function useLinkDelegation(): (e: MouseEvent<HTMLDivElement>) => void {
  const navigate = useNavigate();
  return (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest("a");
    const href = a?.getAttribute("href");
    if (!a || !href || !href.startsWith("/") || a.target) return;
    e.preventDefault();
    void navigate(href, { preventScrollReset: true });
  };
}

/**
 * The listing's facets, from the server's static markup of FacetGroups (facet-panel-html.server.tsx):
 * half of a /models document, rendered once per view instead of once per request, and sent once
 * instead of twice (ADR 0007, ADR 0025).
 */
export function FacetPanel({ html }: { html: IslandHtml }) {
  const onClick = useLinkDelegation();
  // Keyboard users activate the links themselves (Enter fires click); the handler only routes it.
  return (
    <div data-testid="facets" onClick={onClick}>
      <HtmlIsland island={html} />
    </div>
  );
}
