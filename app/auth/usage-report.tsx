import type { UsageRecordView, UsageReport } from "#app/auth/usage-report.server.ts";
import { Pagination } from "#app/ui/pagination.tsx";
import { PastEnd } from "#app/ui/past-end.tsx";

type Group = { key: string; requests: number; errors: number; tokensIn: number; tokensOut: number; durationMs: number };

const fmt = new Intl.NumberFormat("en-US");
const LABELS = { day: "Per day", subject: "Per person", provider: "Per provider", model: "Per model" } as const;

/** Days of the range with none missing, so a quiet day shows as an empty bar rather than vanishing. */
function everyDay(groups: readonly Group[], since: string, days: number): Group[] {
  const byDay = new Map(groups.map((g) => [g.key, g]));
  const out: Group[] = [];
  const start = Date.parse(since);
  for (let i = 0; i < days; i++) {
    const key = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    out.push(byDay.get(key) ?? { key, requests: 0, errors: 0, tokensIn: 0, tokensOut: 0, durationMs: 0 });
  }
  return out;
}

function DayChart({ groups, label }: { groups: readonly Group[]; label: string }) {
  const max = Math.max(1, ...groups.map((g) => g.requests));
  const width = 100 / groups.length;
  return (
    <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={label} className="h-32 w-full rounded bg-gray-50 dark:bg-gray-900">
      {groups.map((g, i) => {
        const h = (g.requests / max) * 38;
        const e = (g.errors / max) * 38;
        return (
          <g key={g.key}>
            <title>{`${g.key}: ${fmt.format(g.requests)} requests, ${fmt.format(g.errors)} errors`}</title>
            <rect x={i * width + width * 0.1} y={40 - h} width={width * 0.8} height={h} className="fill-indigo-500" />
            {e > 0 ? <rect x={i * width + width * 0.1} y={40 - e} width={width * 0.8} height={e} className="fill-red-500" /> : null}
          </g>
        );
      })}
    </svg>
  );
}

function BarList({ groups }: { groups: readonly Group[] }) {
  const max = Math.max(1, ...groups.map((g) => g.requests));
  return (
    <ul className="space-y-1" aria-hidden="true">
      {groups.map((g) => (
        <li key={g.key} className="grid grid-cols-[minmax(0,12rem)_1fr] items-center gap-2 text-xs">
          <span className="truncate" title={g.key}>
            {g.key}
          </span>
          <span className="h-3 rounded bg-indigo-500" style={{ width: `${Math.max(2, (g.requests / max) * 100)}%` }} />
        </li>
      ))}
    </ul>
  );
}

function GroupTable({ groups, caption, keyLabel }: { groups: readonly Group[]; caption: string; keyLabel: string }) {
  return (
    // Wider than a phone (Tokens out was cut off at 390 px): the keyboard scrolls it once it has focus.
    <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={`${caption}: table`}>
      <table className="min-w-full text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-gray-600 dark:text-gray-400">
          <tr>
            <th scope="col" className="py-1 pr-3">{keyLabel}</th>
            <th scope="col" className="py-1 pr-3 text-right">Requests</th>
            <th scope="col" className="py-1 pr-3 text-right">Errors</th>
            <th scope="col" className="py-1 pr-3 text-right">Tokens in</th>
            <th scope="col" className="py-1 text-right">Tokens out</th>
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {groups.map((g) => (
            <tr key={g.key} className="border-t border-gray-200 dark:border-gray-800">
              <th scope="row" className="max-w-64 truncate py-1 pr-3 font-normal" title={g.key}>
                {g.key}
              </th>
              <td className="py-1 pr-3 text-right">{fmt.format(g.requests)}</td>
              <td className="py-1 pr-3 text-right">{fmt.format(g.errors)}</td>
              <td className="py-1 pr-3 text-right">{fmt.format(g.tokensIn)}</td>
              <td className="py-1 text-right">{fmt.format(g.tokensOut)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RecordsTable({ records, showSubject }: { records: readonly UsageRecordView[]; showSubject: boolean }) {
  return (
    // Wider than a phone or a narrow window: the keyboard scrolls it once it has focus.
    <div className="relative overflow-x-auto rounded-lg border border-gray-200 dark:border-gray-800" tabIndex={0} role="region" aria-label="Calls, newest first">
      <table className="min-w-full text-left text-xs" data-usage-records>
        <caption className="sr-only">Calls, newest first</caption>
        <thead className="bg-gray-50 text-gray-600 dark:bg-gray-900 dark:text-gray-400">
          <tr>
            <th scope="col" className="px-2 py-1.5">Time (UTC)</th>
            {showSubject ? <th scope="col" className="px-2 py-1.5">Who</th> : null}
            <th scope="col" className="px-2 py-1.5">Model</th>
            <th scope="col" className="px-2 py-1.5">Provider</th>
            <th scope="col" className="px-2 py-1.5">Task</th>
            <th scope="col" className="px-2 py-1.5">Route</th>
            <th scope="col" className="px-2 py-1.5">Paid by</th>
            <th scope="col" className="px-2 py-1.5 text-right">Status</th>
            <th scope="col" className="px-2 py-1.5 text-right">Time</th>
            <th scope="col" className="px-2 py-1.5 text-right">First token</th>
            <th scope="col" className="px-2 py-1.5 text-right">Tokens in/out</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 tabular-nums dark:divide-gray-800">
          {records.map((r, i) => (
            <tr key={`${r.at}-${i}`}>
              <td className="whitespace-nowrap px-2 py-1">{r.at.slice(0, 19).replace("T", " ")}</td>
              {showSubject ? <td className="px-2 py-1">{r.subject}</td> : null}
              <td className="max-w-56 truncate px-2 py-1" title={r.model ?? ""}>
                {r.model ?? "—"}
              </td>
              <td className="px-2 py-1">{r.provider ?? "—"}</td>
              <td className="px-2 py-1">{r.task ?? "—"}</td>
              <td className="whitespace-nowrap px-2 py-1 font-mono text-xs">{r.endpoint}</td>
              <td className="px-2 py-1">{r.paidBy}</td>
              <td className={`px-2 py-1 text-right ${r.status >= 400 ? "text-red-700 dark:text-red-300" : ""}`}>{r.status}</td>
              <td className="px-2 py-1 text-right">{fmt.format(r.durationMs)} ms</td>
              <td className="px-2 py-1 text-right">{r.ttftMs === null ? "—" : `${fmt.format(r.ttftMs)} ms`}</td>
              <td className="px-2 py-1 text-right">
                {r.tokensIn === null && r.tokensOut === null ? "—" : `${r.tokensIn === null ? "—" : fmt.format(r.tokensIn)} / ${r.tokensOut === null ? "—" : fmt.format(r.tokensOut)}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Charts with a table under each (the same numbers, for screen readers and copying), then the calls. */
export function UsageReportView({ report, basePath, showSubject, csvHref }: { report: UsageReport; basePath: string; showSubject: boolean; csvHref?: string }) {
  const { totals } = report;
  const days = totals.day ? everyDay(totals.day, report.since, report.days) : null;
  const sum = (k: "requests" | "errors" | "tokensIn" | "tokensOut") => (totals.day ?? []).reduce((n, g) => n + g[k], 0);
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-gray-700 dark:text-gray-300">Range:</span>
        {[1, 7, 30, 90].map((d) => (
          <a
            key={d}
            href={`${basePath}?days=${d}`}
            aria-current={report.days === d ? "true" : undefined}
            className={`rounded-md px-2.5 py-1 ${report.days === d ? "bg-indigo-600 text-white" : "border border-gray-300 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900"}`}
          >
            {d === 1 ? "Today" : `${d} days`}
          </a>
        ))}
        {csvHref ? (
          <a href={csvHref} className="ml-auto rounded-md border border-gray-300 px-2.5 py-1 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900" download>
            Export CSV
          </a>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ["Requests", sum("requests")],
          ["Errors", sum("errors")],
          ["Tokens in", sum("tokensIn")],
          ["Tokens out", sum("tokensOut")],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-gray-200 p-3 dark:border-gray-800">
            <dt className="text-xs text-gray-600 dark:text-gray-400">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{fmt.format(Number(value))}</dd>
          </div>
        ))}
      </dl>
      {days ? (
        <section aria-labelledby="usage-day" className="space-y-2">
          <h2 id="usage-day" className="text-lg font-semibold">
            {LABELS.day}
          </h2>
          <DayChart groups={days} label={`Requests per day since ${report.since.slice(0, 10)}; errors in red. The table below has the numbers.`} />
          <div className="flex justify-between text-xs text-gray-600 dark:text-gray-400" aria-hidden="true">
            <span>{days[0]?.key}</span>
            <span>
              <span className="mr-1 inline-block h-2 w-2 bg-indigo-500" /> requests <span className="ml-2 mr-1 inline-block h-2 w-2 bg-red-500" /> errors
            </span>
            <span>{days.at(-1)?.key}</span>
          </div>
          <details>
            <summary className="cursor-pointer text-sm text-gray-700 dark:text-gray-300">Table</summary>
            <GroupTable groups={days} caption="Requests per day" keyLabel="Day" />
          </details>
        </section>
      ) : null}
      <div className="grid gap-8 md:grid-cols-2">
        {(["subject", "provider", "model"] as const).map((d) =>
          totals[d] ? (
            <section key={d} aria-labelledby={`usage-${d}`} className="min-w-0 space-y-2">
              <h2 id={`usage-${d}`} className="text-lg font-semibold">
                {LABELS[d]}
              </h2>
              {totals[d].length === 0 ? (
                <p className="text-sm text-gray-700 dark:text-gray-300">No calls in this range.</p>
              ) : (
                <>
                  {(report.groupCounts[d] ?? 0) > totals[d].length ? (
                    <p className="text-xs text-gray-600 dark:text-gray-400" data-groups-shown>
                      The {fmt.format(totals[d].length)} with the most calls, of {fmt.format(report.groupCounts[d] ?? 0)}
                      {report.count > 0 && csvHref ? "; the CSV export has every call" : ""}.
                    </p>
                  ) : null}
                  <BarList groups={totals[d]} />
                  <GroupTable groups={totals[d]} caption={LABELS[d]} keyLabel={d === "subject" ? "Person" : d === "provider" ? "Provider" : "Model"} />
                </>
              )}
            </section>
          ) : null,
        )}
      </div>
      <section aria-labelledby="usage-calls" className="space-y-2">
        <h2 id="usage-calls" className="text-lg font-semibold">
          Calls <span className="text-sm font-normal text-gray-600 dark:text-gray-400">({fmt.format(report.count)} in this range, newest first)</span>
        </h2>
        {report.page > report.last ? (
          <PastEnd
            page={report.page}
            lastPage={report.last}
            message={`This range has ${report.count === 1 ? "1 call" : `${fmt.format(report.count)} calls`}, on ${report.last === 1 ? "1 page" : `${fmt.format(report.last)} pages`}.`}
            href={`${basePath}?days=${report.days}&page=${report.last}`}
          />
        ) : (
          <>
            {report.records.length === 0 ? <p className="text-sm text-gray-700 dark:text-gray-300">No calls in this range.</p> : <RecordsTable records={report.records} showSubject={showSubject} />}
            <Pagination page={report.page} last={report.last} more={false} href={(p) => `${basePath}?days=${report.days}&page=${p}`} />
          </>
        )}
      </section>
    </div>
  );
}
