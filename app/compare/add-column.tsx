/** Adds a column: searches the catalogue for models that can run the task here, then a provider. */
import { type FormEvent, useEffect, useId, useState } from "react";
import type { CompareCandidates } from "#app/compare/compare-info.ts";
import type { CompareTask } from "#app/compare/compare-tasks.ts";
import { buttonCls, fieldCls } from "#app/compare/compare-styles.ts";

export function AddColumn({ task, onAdd, disabled, initialQuery = "" }: { task: CompareTask; onAdd: (modelId: string, route: string) => void; disabled: boolean; initialQuery?: string }) {
  const id = useId();
  const [query, setQuery] = useState(initialQuery);
  // The term the shown results are for: the box may have changed since.
  const [found, setFound] = useState<({ term: string } & CompareCandidates) | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function search(term: string) {
    setError(null);
    try {
      const res = await fetch(`/api/compare/candidates?task=${encodeURIComponent(task)}&q=${encodeURIComponent(term)}`);
      if (!res.ok) throw new Error(`The search failed (${res.status}).`);
      setFound({ term: term.trim(), ...((await res.json()) as CompareCandidates) });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }
  function find(e: FormEvent) {
    e.preventDefault();
    void search(query);
  }
  // Arriving from a model page ("Compare with…") with its name in the box: its results are shown
  // rather than waiting for a press of Search.
  useEffect(() => {
    if (initialQuery.trim() !== "") void search(initialQuery);
    // Once per arrival: the box is the visitor's after that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialQuery, task]);
  return (
    <section aria-labelledby={`${id}-h`} className="rounded-lg border border-dashed border-gray-300 p-3 text-sm dark:border-gray-700" data-add-column="">
      <h2 id={`${id}-h`} className="font-semibold">
        Add a column
      </h2>
      <form onSubmit={find} className="mt-2 flex gap-2">
        <label htmlFor={`${id}-q`} className="sr-only">
          Search models that can run this task
        </label>
        <input id={`${id}-q`} name="q" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search models that can run this task" className={fieldCls} disabled={disabled} />
        <button type="submit" className={buttonCls} disabled={disabled}>
          Search
        </button>
      </form>
      {error ? <p role="alert" className="mt-2 text-xs text-red-800 dark:text-red-200">{error}</p> : null}
      {found ? (
        found.candidates.length === 0 ? (
          <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
            {found.term ? <>No model matching “{found.term}” can run this task here.</> : <>No model can run this task here.</>}
          </p>
        ) : (
          <>
            <ul className="mt-2 space-y-1" data-candidates="">
              {found.candidates.map((c) => (
                <li key={c.modelId} className="flex flex-wrap items-center gap-1">
                  <span className="mr-1 break-all font-medium">{c.modelId}</span>
                  {c.choices.map((choice) => (
                    <button key={choice.route} type="button" className={buttonCls} onClick={() => onAdd(c.modelId, choice.route)} aria-label={`Add ${c.modelId} on ${choice.label}`}>
                      {choice.label}
                    </button>
                  ))}
                </li>
              ))}
            </ul>
            {found.more ? (
              <p className="mt-2 text-xs text-gray-600 dark:text-gray-400" data-candidates-more="">
                The first {found.candidates.length} that can run here, most downloaded first: type more of a name to find others.
              </p>
            ) : null}
          </>
        )
      ) : null}
    </section>
  );
}
