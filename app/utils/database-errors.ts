/**
 * Whether an error is the database not answering: the network refusing or failing to find it, or
 * PostgreSQL refusing connections (SQLSTATE class 08, and 57P01-57P03 while it shuts down or starts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  if (/^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/.test(code)) return true;
  if (/^08|^57P0[123]$/.test(code)) return true;
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|timeout exceeded when trying to connect/i.test(message);
}

/** What a visitor or client is told meanwhile; readiness (/readyz) fails too. */
export const DATABASE_DOWN_MESSAGE = "The database is not answering. Try again in a moment.";
