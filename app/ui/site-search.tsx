import { useEffect, useId, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";

/** GET /api/suggest's answer (app/catalog-search/views/suggest.server.ts), as far as this box reads it. */
interface SuggestAnswer {
  query: string;
  models: Array<{ id: string; pipelineTag: string | null }>;
  orgs: string[];
  tasks: Array<{ id: string; name: string }>;
}

interface Option {
  key: string;
  href: string;
  label: string;
  hint: string;
}

interface Group {
  label: string;
  options: Option[];
}

const DEBOUNCE_MS = 150;

function isAnswer(v: unknown): v is SuggestAnswer {
  if (typeof v !== "object" || v === null) return false;
  const a = v as Record<string, unknown>;
  return typeof a["query"] === "string" && Array.isArray(a["models"]) && Array.isArray(a["orgs"]) && Array.isArray(a["tasks"]);
}

function groupsOf(answer: SuggestAnswer): Group[] {
  const groups: Group[] = [
    { label: "Models", options: answer.models.map((m) => ({ key: `m:${m.id}`, href: `/${m.id}`, label: m.id, hint: m.pipelineTag ?? "" })) },
    { label: "Organisations", options: answer.orgs.map((o) => ({ key: `o:${o}`, href: `/${o}`, label: o, hint: "organisation" })) },
    { label: "Tasks", options: answer.tasks.map((t) => ({ key: `t:${t.id}`, href: `/models?pipeline_tag=${encodeURIComponent(t.id)}`, label: t.name, hint: "task" })) },
    {
      label: "Search",
      options: [{ key: "all", href: `/models?search=${encodeURIComponent(answer.query)}`, label: `All models matching “${answer.query}”`, hint: "" }],
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

/**
 * The header's search box: a plain GET form to /models that works without JavaScript, and, with
 * it, a combobox (WAI-ARIA 1.2 pattern) suggesting models, organisations and tasks as one types.
 * Arrow keys move through the suggestions, Enter opens one, Escape closes the list.
 */
export function SiteSearch({ initial, inputKey }: { initial: string; inputKey: string }) {
  const navigate = useNavigate();
  const listId = useId();
  const [value, setValue] = useState(initial);
  const [answer, setAnswer] = useState<SuggestAnswer | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const cache = useRef(new Map<string, SuggestAnswer>());

  useEffect(() => {
    const q = value.trim();
    if (q.length < 2) {
      setAnswer(null);
      return;
    }
    const known = cache.current.get(q);
    if (known) {
      setAnswer(known);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/suggest?q=${encodeURIComponent(q)}`, { signal: abort.signal })
        .then((r) => (r.ok ? r.json() : null))
        .then((json: unknown) => {
          if (!isAnswer(json)) return;
          cache.current.set(q, json);
          setAnswer(json);
          setActive(-1);
        })
        // A failed or cancelled suggestion leaves the plain search, which still works.
        .catch(() => undefined);
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [value]);

  const groups = answer && answer.query === value.trim() ? groupsOf(answer) : [];
  const options = groups.flatMap((g) => g.options);
  const expanded = open && options.length > 0;
  const optionId = (i: number) => `${listId}-o${i}`;

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (options.length === 0) return;
      e.preventDefault();
      setOpen(true);
      // Past either end the input itself is active again (-1), as in a native datalist.
      if (e.key === "ArrowDown") setActive((i) => (i + 1 >= options.length ? -1 : i + 1));
      else setActive((i) => (i <= -1 ? options.length - 1 : i - 1));
    } else if (e.key === "Escape") {
      if (expanded) e.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (e.key === "Enter" && expanded && active >= 0 && active < options.length) {
      e.preventDefault();
      setOpen(false);
      void navigate(options[active]!.href);
    }
  };

  let index = -1;
  return (
    <Form method="get" action="/models" role="search" className="relative order-last w-full sm:order-none sm:w-auto sm:flex-1 sm:max-w-md">
      <label htmlFor="site-search" className="sr-only">
        Search models
      </label>
      <input
        id="site-search"
        key={inputKey}
        type="search"
        name="search"
        defaultValue={initial}
        placeholder="Search models, e.g. llama"
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 && active < options.length ? optionId(active) : undefined}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-lg border border-gray-300 bg-gray-50 px-3 py-1.5 text-sm placeholder:text-gray-500 focus:border-indigo-500 focus:bg-white dark:border-gray-700 dark:bg-gray-900 dark:placeholder:text-gray-400 dark:focus:bg-gray-950"
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-30 mt-1 max-h-[70vh] overflow-y-auto rounded-lg border border-gray-200 bg-white py-1 text-sm shadow-lg dark:border-gray-700 dark:bg-gray-900"
      >
        {groups.map((g) => (
          <div key={g.label} role="group" aria-label={g.label}>
            <div aria-hidden="true" className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400">
              {g.label}
            </div>
            {g.options.map((o) => {
              index += 1;
              const i = index;
              return (
                <a
                  key={o.key}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  href={o.href}
                  tabIndex={-1}
                  // Keeps the input focused, so the click is not lost to the list closing on blur.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => setOpen(false)}
                  className={`flex items-baseline justify-between gap-3 px-3 py-1.5 ${i === active ? "bg-indigo-50 dark:bg-indigo-950" : "hover:bg-gray-50 dark:hover:bg-gray-800"}`}
                >
                  <span className={`min-w-0 truncate text-gray-900 dark:text-gray-100 ${o.key.startsWith("m:") || o.key.startsWith("o:") ? "font-mono" : ""}`}>{o.label}</span>
                  {o.hint ? <span className="hidden shrink-0 text-xs text-gray-600 sm:inline dark:text-gray-400">{o.hint}</span> : null}
                </a>
              );
            })}
          </div>
        ))}
      </div>
    </Form>
  );
}
