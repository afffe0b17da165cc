/**
 * The signed-in and admin pages with more rows than one page holds, against the real server and
 * its SQLite database: pages past the end of each listing, the last admin invited again, and the
 * token and usage pages at a phone's width in Chromium (no sideways scrolling, axe clean).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addPerson, createPersonalToken } from "#app/auth/accounts.server.ts";
import { sha256Hex } from "#app/auth/secrets.server.ts";
import { findUserById } from "#app/db/queries/accounts.server.ts";
import { insertUsageRecord } from "#app/db/queries/usage.server.ts";
import { setupBrowser, setupDatabase, setupOfflinePage, setupServer } from "#tests/e2e/support/journey.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";

const server = setupServer();
const database = setupDatabase(server);
const browser = setupBrowser();
const { page, context } = setupOfflinePage(browser, { viewport: { width: 390, height: 844 } });

let cookie = "";
let adminId = "";
// React marks where one text node ends and the next begins: "Page <!-- -->3<!-- --> is past…".
const visible = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const csrf = () => sha256Hex(`csrf:${cookie.split("=")[1] ?? ""}`);
const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
const post = (path: string, fields: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf: csrf(), ...fields }), redirect: "manual" });

beforeAll(async () => {
  const db = database.db;
  // The only admin, signed in through their one-time link as a browser would be.
  const { user, link } = await addPerson(db, { email: "chief@example.com", role: "admin" }, server.url);
  adminId = user.id;
  const signedIn = await fetch(link.url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ password: "a long admin password", confirm: "a long admin password" }),
    redirect: "manual",
  });
  expect(signedIn.status).toBe(302);
  cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
  // 26 tokens and 26 more people: two pages of each at 25 a page.
  for (let i = 0; i < 26; i++) await createPersonalToken(db, user.id, { name: `job ${i}`, expiresInDays: 30, scopes: ["read"], rpm: null, tokensPerDay: null });
  for (let i = 0; i < 26; i++) await addPerson(db, { email: `person${i}@example.com`, role: "member" }, server.url);
  // 60 calls over 13 models (two pages at 50 a page); the usage lists show the busiest 12.
  const at = new Date().toISOString();
  for (let i = 0; i < 60; i++) {
    await insertUsageRecord(db, {
      at,
      day: at.slice(0, 10),
      user_id: user.id,
      token_id: null,
      subject: user.email,
      model: `org/model-${i % 13}`,
      provider: "together",
      task: "conversational",
      paid_by: "server",
      status: 200,
      duration_ms: 100,
      ttft_ms: 20,
      tokens_in: 3,
      tokens_out: 5,
      bill_to: null,
      endpoint: "/api/inference",
    });
  }
});

describe("a page past the end of a listing", () => {
  it("answers 404 and says how many rows there are and where they end, on every account listing", async () => {
    const cases = [
      ["/settings/tokens", "You have 26 tokens, on 2 pages."],
      ["/admin/tokens", "There are 26 tokens, on 2 pages."],
      ["/admin", "There are 27 accounts, on 2 pages."],
      ["/settings/usage?days=7", "This range has 60 calls, on 2 pages."],
      ["/admin/usage?days=7", "This range has 60 calls, on 2 pages."],
    ] as const;
    for (const [path, says] of cases) {
      const join = path.includes("?") ? "&" : "?";
      const last = await get(`${path}${join}page=2`);
      expect(last.status, path).toBe(200);
      expect(await visible(last), path).not.toContain("past the end");
      const past = await get(`${path}${join}page=3`);
      expect(past.status, path).toBe(404);
      const html = await visible(past);
      expect(html, path).toContain("Page 3 is past the end");
      expect(html, path).toContain(says);
      // It no longer claims the list is empty.
      expect(html, path).not.toContain("No tokens yet");
      expect(html, path).not.toContain("No calls in this range");
    }
  });
});

describe("the usage report", () => {
  it("says when a per-model list holds only the busiest models", async () => {
    const html = await visible(await get("/admin/usage?days=7"));
    expect(html).toContain("The 12 with the most calls, of 13");
    // Providers fit whole: no such line for them.
    expect(html.match(/with the most calls, of/g)).toHaveLength(1);
  });
});

describe("inviting the last admin again", () => {
  it("as a member is refused on /admin with the reason, and they stay an admin", async () => {
    const refused = await post("/admin", { intent: "invite", email: "chief@example.com", role: "member" });
    expect(refused.status).toBe(400);
    expect(await visible(refused)).toContain("chief@example.com is the last admin: make someone else an admin first");
    expect((await findUserById(database.db, adminId))?.role).toBe("admin");
    expect((await get("/admin")).status).toBe(200);
  });
});

describe("a form sent with values its page never offers", () => {
  it("is answered on the page in the form's own words, never a validator's internals", async () => {
    const cases = [
      ["/settings/tokens", { intent: "create", name: "x", expires: "soon", scopes: "read" }, "expiry must be a whole number of days, or none"],
      ["/settings/tokens", { intent: "create", name: "x", expires: "30", scopes: "admin" }, "scopes are read and inference"],
      ["/admin", { intent: "quota", id: adminId, rpm: "abc", tokensPerDay: "" }, "Requests/min must be a whole number from 1 to 1,000,000,000,000, or empty for the default; got “abc”."],
      ["/admin", { intent: "quota", id: adminId, rpm: "", tokensPerDay: "1.5" }, "Tokens/day must be a whole number from 1 to 1,000,000,000,000, or empty for the default; got “1.5”."],
    ] as const;
    for (const [path, fields, says] of cases) {
      const answer = await post(path, fields);
      expect(answer.status, says).toBe(400);
      const html = await visible(answer);
      expect(html, says).toContain(says);
      expect(html, says).not.toMatch(/Invalid (input|option)|tokensPerDay must|rpm must/);
    }
  });
});

describe("the people list", () => {
  it("finds accounts by part of their e-mail, says how many, and pages within the result", async () => {
    const found = await get("/admin?q=Person1");
    expect(found.status).toBe(200);
    const html = await visible(found);
    expect(html).toContain("11 accounts’ e-mails hold “Person1”.");
    // The page's heading still counts everyone.
    expect(html).toContain("27 accounts.");
    expect(html.match(/data-person="[^"]+"/g)).toHaveLength(11);
    expect(html).not.toContain('data-person="person2@example.com"');
    const none = await visible(await get("/admin?q=nobody-here"));
    expect(none).toContain("No account’s e-mail holds “nobody-here”.");
    expect(none).not.toContain("data-person=");
    const past = await get("/admin?q=person&page=3");
    expect(past.status).toBe(404);
    const pastHtml = await visible(past);
    expect(pastHtml).toContain("There are 26 accounts whose e-mail holds “person”, on 2 pages.");
    expect(pastHtml).toContain('href="/admin?q=person&amp;page=2"');
  });
});

describe("an admin revoking someone's token", () => {
  it("is told which token of whose it revoked, in the names the table shows, not its internal id", async () => {
    const { user } = await addPerson(database.db, { email: "dana@example.com", role: "member" }, server.url);
    const { id } = await createPersonalToken(database.db, user.id, { name: "nightly eval", expiresInDays: 30, scopes: ["inference"], rpm: null, tokensPerDay: null });
    const revoked = await post("/admin/tokens", { id });
    expect(revoked.status).toBe(200);
    const html = await visible(revoked);
    expect(html).toMatch(/Revoked “nightly eval” \(myd_[A-Za-z0-9_-]+…\) of dana@example\.com: it no longer works anywhere\./);
    expect(html).not.toContain(`Revoked ${id}`);
    const again = await post("/admin/tokens", { id });
    expect(again.status).toBe(404);
    expect(await visible(again)).toContain("“nightly eval”");
  });
});

describe("at a phone's width", () => {
  it("the token lists, the usage pages and the people search do not scroll sideways, and pass axe", async () => {
    const [name, value] = cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    for (const path of ["/admin/tokens", "/settings/tokens", "/admin/usage?days=7", "/settings/usage?days=7", "/admin?q=person1"]) {
      await page.goto(`${server.url}${path}`);
      // The tables scroll inside their own boxes; the page itself stays 390 px wide.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(390);
      const violations = await runAxe(page);
      expect(violations, `${path}:\n${describeViolations(violations)}`).toEqual([]);
    }
  });
});
