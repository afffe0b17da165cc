import fs from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { BrowserContext, Page } from "playwright-core";

/** The axe rule tags a page must pass: WCAG 2.0 and 2.1, A and AA, plus axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] as const;

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Runs axe in the page, or only within the elements `within` selects. The source goes in through
 * the DevTools protocol (page.evaluate), not a <script> tag, so the page's Content-Security-Policy
 * neither blocks it nor has to allow it.
 */
export async function runAxe(page: Page, within?: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async ([tags, selector]) => {
    const axe = (window as unknown as { axe: { run: (context: Document | string, options: object) => Promise<AxeResults> } }).axe;
    const results = await axe.run(selector ?? document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 200), summary: n.failureSummary ?? "" })),
    }));
  }, [[...AXE_TAGS], within] as const);
}

export interface CspViolation {
  directive: string;
  blockedURI: string;
  sample: string;
  source: string;
}

/**
 * Records every `securitypolicyviolation` event in each page of the context, from before the
 * page's first script runs. Read them with readCspViolations().
 */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: unknown[] = [];
    Object.defineProperty(window, "__cspViolations", { value: seen });
    document.addEventListener("securitypolicyviolation", (e) => {
      seen.push({ directive: e.effectiveDirective, blockedURI: e.blockedURI, sample: e.sample, source: `${e.sourceFile}:${e.lineNumber}` });
    });
  });
}

export async function readCspViolations(page: Page): Promise<CspViolation[]> {
  return page.evaluate(() => ((window as unknown as { __cspViolations?: CspViolation[] }).__cspViolations ?? []).slice());
}

/** One line per violation and node, for a failure message a person can act on. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help}\n    at ${n.target}\n    ${n.html}\n    ${n.summary.replace(/\n/g, "\n    ")}`))
    .join("\n");
}
