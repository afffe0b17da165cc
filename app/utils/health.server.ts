/**
 * Health answers in the shape of the IETF health-check draft (draft-inadarei-api-health-check):
 * `status` pass, warn or fail, and `checks` keyed "component:measurement", each a list of
 * observations. GET /healthz says the process answers; GET /readyz (app/routes/readyz.ts) whether
 * this instance should be sent traffic. A warn is still ready; only a fail answers 503.
 */
export type HealthStatus = "pass" | "warn" | "fail";

export interface HealthCheck {
  status: HealthStatus;
  componentType?: "datastore" | "component" | "system";
  observedValue?: number | string | boolean;
  observedUnit?: string;
  /** Why it is not a pass, in a sentence. */
  output?: string;
  time: string;
}

export interface HealthAnswer {
  status: HealthStatus;
  description: string;
  checks: Record<string, HealthCheck[]>;
}

const RANK: Record<HealthStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** The worst status among the checks (pass when there are none). */
export function overallStatus(checks: Record<string, HealthCheck[]>): HealthStatus {
  let worst: HealthStatus = "pass";
  for (const list of Object.values(checks)) for (const c of list) if (RANK[c.status] > RANK[worst]) worst = c.status;
  return worst;
}

/** The answer as `application/health+json`: 200 for pass and warn, 503 for fail; never cached. */
export function healthResponse(answer: HealthAnswer): Response {
  return new Response(JSON.stringify(answer), {
    status: answer.status === "fail" ? 503 : 200,
    headers: { "Content-Type": "application/health+json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

// Module state, one copy in `modelyard serve` (ADR 0019): set once SIGTERM arrives.
let drainingSince: string | null = null;

/** Readiness fails from now on: the process is shutting down (cli/serve-command.ts). */
export function startDraining(): void {
  drainingSince ??= new Date().toISOString();
}

/** When shutdown began, or null while serving. */
export function drainingSinceTime(): string | null {
  return drainingSince;
}
