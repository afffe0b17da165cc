/**
 * The audit every task-widget journey ends with. axe checks the whole page in light and the widget
 * in dark: around the widget is the playground's own page, which security-and-a11y audits in every
 * theme. A screenshot of the widget in each scheme (and on a phone, when asked) goes to
 * test-results/screenshots/, and the journey must not have tried to leave this machine.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";

const SHOTS = path.resolve(import.meta.dirname, "..", "..", "..", "test-results", "screenshots");
const WIDGET = "[data-task-widget]";

export async function auditWidget(page: Page, name: string, opts: { blocked: readonly string[]; phone?: boolean }): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const widget = page.locator(WIDGET);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await runAxe(page, scheme === "light" ? undefined : WIDGET);
    expect(violations, `${scheme}: ${describeViolations(violations)}`).toEqual([]);
    await widget.screenshot({ path: path.join(SHOTS, `task-widget-${name}-${scheme}.png`) });
  }
  const viewport = page.viewportSize();
  if (opts.phone && viewport) {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await widget.screenshot({ path: path.join(SHOTS, `task-widget-${name}-phone-${scheme}.png`) });
    }
    await page.setViewportSize(viewport);
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(opts.blocked).toEqual([]);
}
