/**
 * A misconfigured server stops at once, exit code 1, with one line naming the setting to fix, where
 * an operator's review found a malformed MODELYARD_ENDPOINTS started a server with no endpoint and
 * no word, and an unreachable PostgreSQL printed only the driver's "connect ECONNREFUSED …".
 */
import { describe, expect, it } from "vitest";
import { startTestServer } from "#tests/e2e/support/server.ts";
import { freePort } from "#tests/support/free-port.ts";

describe("a server that cannot start says why", () => {
  it("refuses a malformed MODELYARD_ENDPOINTS, naming it", async () => {
    const start = startTestServer({ env: { MODELYARD_ENDPOINTS: '[{"name":"x"' } });
    await expect(start).rejects.toThrow(/exited with code 1:[\s\S]*Invalid environment: MODELYARD_ENDPOINTS is not valid JSON/);
    const invalid = startTestServer({ env: { MODELYARD_ENDPOINTS: '[{"name":"lab","url":"not a url","models":["org/m"]}]' } });
    await expect(invalid).rejects.toThrow(/exited with code 1:[\s\S]*Invalid environment: MODELYARD_ENDPOINTS is invalid at 0\.url/);
  });

  it("names DATABASE_URL when the database cannot be reached, without the password", async () => {
    const port = await freePort();
    const start = startTestServer({ databaseUrl: `postgres://modelyard:s3cret-pw@127.0.0.1:${port}/none` });
    const error = await start.then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toMatch(/exited with code 1:/);
    expect(error).toContain(`The database at postgres://modelyard:***@127.0.0.1:${port}/none (DATABASE_URL) could not be opened and migrated: `);
    expect(error).toContain("ECONNREFUSED");
    expect(error).not.toContain("s3cret-pw");
  });
});
