import type { ImportProgress, ImportSummary } from "#app/import/importer.server.ts";

const fmt = new Intl.NumberFormat("en-US");

const rows = (n: number) => `${fmt.format(n)} ${n === 1 ? "row" : "rows"}`;

function rate(p: ImportProgress): string {
  const secs = Math.max(p.elapsedMs, 1) / 1000;
  return `${fmt.format(Math.round(p.rows / secs))} rows/s`;
}

/** Where progress goes as log lines: the process's logger (app/utils/logger.server.ts). */
export type ProgressLog = (fields: Record<string, number>, message: string) => void;

/**
 * A progress bar on a terminal; elsewhere (a service's log, a pipe) one log line at most every
 * 2 s, through `log` as JSON when given (ADR 0041), else as plain text. The total is unknown for
 * streamed files, so the bar is a spinner-style counter rather than a percentage.
 */
export function createProgressReporter(
  stream: NodeJS.WriteStream = process.stderr,
  log?: ProgressLog,
): {
  update(p: ImportProgress): void;
  done(): void;
} {
  const tty = stream.isTTY === true;
  let lastLine = 0;
  let frame = 0;
  const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  return {
    update(p) {
      const text = `${rows(p.rows)} · ${fmt.format(p.inserted)} new · ${fmt.format(p.updated)} updated · ${fmt.format(p.unchanged)} unchanged · ${fmt.format(p.rejected)} rejected · ${rate(p)}`;
      if (tty) {
        const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - text.length - 6));
        const pos = frame % width;
        const bar = "░".repeat(pos) + "█" + "░".repeat(Math.max(0, width - pos - 1));
        stream.write(`\r${frames[frame++ % frames.length]} [${bar}] ${text}\x1b[K`);
      } else if (Date.now() - lastLine >= 2000) {
        lastLine = Date.now();
        if (log) {
          const perSecond = Math.round(p.rows / (Math.max(p.elapsedMs, 1) / 1000));
          log({ rows: p.rows, inserted: p.inserted, updated: p.updated, unchanged: p.unchanged, rejected: p.rejected, rows_per_s: perSecond }, "import progress");
        } else stream.write(`progress: ${text}\n`);
      }
    },
    done() {
      if (tty) stream.write("\r\x1b[K");
    },
  };
}

export function formatSummary(s: ImportSummary, maxListed = 200): string {
  const lines = [
    `Imported ${rows(s.rows)} in ${(s.elapsedMs / 1000).toFixed(1)} s (${rate(s)}): ${fmt.format(s.inserted)} inserted, ${fmt.format(s.updated)} updated, ${fmt.format(s.unchanged)} unchanged, ${fmt.format(s.rejected)} rejected.`,
  ];
  if (s.rejections.length) {
    lines.push("Rejected rows:");
    for (const r of s.rejections.slice(0, maxListed)) {
      lines.push(`  ${r.source}:${r.line}${r.id ? ` (${r.id})` : ""}: ${r.reason}`);
    }
    if (s.rejections.length > maxListed) lines.push(`  … and ${fmt.format(s.rejections.length - maxListed)} more (see the report file).`);
  }
  return lines.join("\n");
}
