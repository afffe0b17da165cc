import { Link } from "react-router";

/** Page numbers to show: the first, the last, and two either side of the current one. */
export function pageWindow(current: number, last: number): Array<number | "gap"> {
  const want = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2].filter((p) => p >= 1 && p <= last));
  const pages = [...want].sort((a, b) => a - b);
  const out: Array<number | "gap"> = [];
  for (const p of pages) {
    const prev = out.at(-1);
    if (typeof prev === "number" && p - prev > 1) out.push("gap");
    out.push(p);
  }
  return out;
}

const base = "inline-flex min-w-9 items-center justify-center rounded-md px-2.5 py-1.5 text-sm";
const idle = `${base} border border-gray-200 text-gray-700 hover:bg-gray-50 dark:border-gray-800 dark:text-gray-300 dark:hover:bg-gray-900`;

/**
 * Page links with previous/next. `last` is the last page known to exist; `more` says further pages
 * exist beyond it (when the total is only known as a lower bound).
 */
export function Pagination({ page, last, more, href }: { page: number; last: number; more: boolean; href: (page: number) => string }) {
  if (last <= 1 && !more) return null;
  return (
    <nav aria-label="Pagination" className="mt-6 flex flex-wrap items-center justify-center gap-1.5">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={idle} preventScrollReset={false}>
          ← Previous
        </Link>
      ) : (
        <span className={`${base} text-gray-400 dark:text-gray-600`} aria-disabled="true">
          ← Previous
        </span>
      )}
      {pageWindow(page, last).map((p, i) =>
        p === "gap" ? (
          <span key={`gap-${i}`} className="px-1 text-gray-500" aria-hidden="true">
            …
          </span>
        ) : p === page ? (
          <span key={p} aria-current="page" className={`${base} bg-indigo-600 font-semibold text-white`}>
            {p}
          </span>
        ) : (
          <Link key={p} to={href(p)} className={idle} aria-label={`Page ${p}`}>
            {p}
          </Link>
        ),
      )}
      {more && <span className="px-1 text-gray-500">…</span>}
      {page < last || more ? (
        <Link to={href(page + 1)} rel="next" className={idle}>
          Next →
        </Link>
      ) : (
        <span className={`${base} text-gray-400 dark:text-gray-600`} aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
