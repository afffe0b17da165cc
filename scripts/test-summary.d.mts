/** Types of scripts/test-summary.mjs, which runs under plain Node before anything is built. */
export interface SummaryReport {
  modules: Array<{ file: string; state: string; errors: string[]; tests: Array<{ name: string; state: string; note: string | null }> }>;
  unhandledErrors: string[];
}

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  problems: string[];
}

export function summarizeRun(report: SummaryReport | null, exitCode: number | null): RunCounts;
export function runCountedVitest(root: string, label: string, args: string[]): RunCounts & { exitCode: number | null };
