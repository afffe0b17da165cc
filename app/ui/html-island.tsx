import { createContext, useContext, useState, type ComponentProps } from "react";
import type { IslandHtml, IslandStore } from "#app/utils/html-island.ts";

/** The request's island store during the server render (app/entry.server.tsx provides it). */
export const IslandStoreContext = createContext<IslandStore | null>(null);

/**
 * A <div> showing trusted HTML from an IslandHtml (app/utils/html-island.ts). On the server the
 * HTML comes inline or from the request's store; in the browser, when the loader data carried
 * only the key, from the server markup this element is hydrated over. Every later render of new
 * loader data comes from a `.data` request, which carries the HTML inline.
 */
export function HtmlIsland({ island, ...props }: { island: IslandHtml | string } & Omit<ComponentProps<"div">, "children" | "dangerouslySetInnerHTML">) {
  const value = typeof island === "string" ? { key: "inline", html: island } : island;
  const store = useContext(IslandStoreContext);
  const [fromMarkup] = useState(() =>
    value.html === undefined && typeof document !== "undefined" ? (document.querySelector(`[data-island="${value.key}"]`)?.innerHTML ?? null) : null,
  );
  const html = value.html ?? store?.html.get(value.key) ?? fromMarkup ?? "";
  return <div {...props} data-island={value.html === undefined ? value.key : undefined} dangerouslySetInnerHTML={{ __html: html }} />;
}
