import type { ReactNode } from "react";

export interface ExampleItem {
  id: string;
  description: string;
  /** Where the link goes; `external` marks links that leave this catalogue. */
  href: string;
  external: boolean;
}

export function ExternalMark() {
  return (
    <span className="ml-1 inline-flex items-center gap-0.5 rounded bg-gray-100 px-1 text-[0.7rem] font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300">
      <svg viewBox="0 0 12 12" aria-hidden="true" className="h-2.5 w-2.5">
        <path d="M5 2H2v8h8V7M7 2h3v3M10 2 5.5 6.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
      </svg>
      external
    </span>
  );
}

/** A list of example repositories (models, datasets, Spaces) with their descriptions. */
export function ExampleList({ items, kind, children }: { items: ExampleItem[]; kind: string; children?: ReactNode }) {
  return (
    <ul className="space-y-3" data-example-list={kind}>
      {items.map((item) => (
        <li key={item.id} data-example-id={item.id} data-external={item.external ? "true" : "false"}>
          <a
            href={item.href}
            className="font-mono text-sm font-semibold break-all text-indigo-700 hover:underline dark:text-indigo-300"
            {...(item.external ? { rel: "noopener noreferrer" } : {})}
          >
            {item.id}
          </a>
          {item.external ? <ExternalMark /> : null}
          {item.description ? <p className="mt-0.5 text-sm text-gray-700 dark:text-gray-300">{item.description}</p> : null}
        </li>
      ))}
      {children}
    </ul>
  );
}
