import { Link } from "react-router";
import { formatNumber } from "#app/utils/format.ts";

/**
 * What a listing page past the last one shows (with a 404): where the rows end and a link to the
 * last page, so a count above never sits next to a claim that nothing matches. `message` says
 * where this listing's rows end, in its own nouns.
 */
export function PastEnd({ page, lastPage, message, href }: { page: number; lastPage: number; message: string; href: string }) {
  return (
    <div data-testid="past-end" className="rounded-lg border border-dashed border-gray-300 px-6 py-10 text-center dark:border-gray-700">
      <h2 className="text-lg font-semibold">Page {formatNumber(page)} is past the end</h2>
      <p className="mx-auto mt-2 max-w-lg text-sm text-gray-600 dark:text-gray-400">{message}</p>
      <Link to={href} className="mt-5 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500" data-testid="last-page-link">
        {lastPage === 1 ? "Go to the first page" : `Go to the last page (${formatNumber(lastPage)})`}
      </Link>
    </div>
  );
}
