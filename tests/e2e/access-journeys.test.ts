/**
 * Who may spend the server's keys, in Chromium against the real server (ADR 0038): OpenID Connect
 * sign-in against a real provider (oidc-provider) then an API token made, used and revoked; a
 * local account invited with the CLI; an anonymous visitor refused the server's key and told why;
 * and a page on another origin failing to spend, in a real browser. Providers are the SIMULATOR.
 * No token may appear in any log, page or error: each journey greps the server's output for them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupOfflinePage, setupServer, setupService, setupSimulator } from "#tests/e2e/support/journey.ts";
import { allowOnlyLoopback, waitForHydration } from "#tests/e2e/support/browser.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { runModelyard } from "#tests/e2e/support/import-cli.ts";
import { startOidcProvider } from "#tests/support/oidc-provider.ts";

const SERVER_KEY = "hf_e2eAccessServerKey00000";
const CHAT_MODEL = "meta-llama/Meta-Llama-3-8B-Instruct";
const chatBody = JSON.stringify({ model: CHAT_MODEL, provider: "together", messages: [{ role: "user", content: "hello" }] });

const secrets: string[] = [SERVER_KEY];
const sim = setupSimulator();
const oidc = setupService("The OpenID provider", startOidcProvider, (o) => o.close());
const server = setupServer(
  () => ({
    env: {
      MODELYARD_UPSTREAM_OVERRIDE: sim.url,
      HF_TOKEN: SERVER_KEY,
      MODELYARD_OIDC_ISSUER: oidc.issuer,
      MODELYARD_OIDC_CLIENT_ID: oidc.clientId,
      MODELYARD_OIDC_CLIENT_SECRET: oidc.clientSecret,
      MODELYARD_OIDC_ALLOWED: "corp.example",
      MODELYARD_ADMIN_EMAILS: "boss@corp.example",
    },
  }),
  async (s) => {
    oidc.start(`${s.url}/auth/oidc/callback`);
    secrets.push(oidc.clientSecret);
  },
);
afterAll(() => {
  // No secret of any journey reached the server's log.
  for (const secret of secrets) expect(server.output(), "a token in the server's log").not.toContain(secret);
});
const browser = setupBrowser();
const { page, context } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

const inference = (headers: Record<string, string>) => fetch(`${server.url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: chatBody });

describe("signing in and API tokens", () => {
  it("signs in through OpenID Connect, makes a token, uses it on the server's key, and revokes it", async () => {
    await page.goto(`${server.url}/login?redirectTo=%2Fsettings%2Ftokens`);
    await page.getByRole("link", { name: /Sign in with 127\.0\.0\.1/ }).click();
    // oidc-provider's own login and consent pages.
    await page.waitForURL((u) => u.origin === oidc.issuer);
    await page.locator("input[name=login]").fill("alice@corp.example");
    await page.locator("input[name=password]").fill("any");
    await page.locator("button[type=submit]").click();
    await page.locator("button[type=submit]", { hasText: /continue/i }).click();
    await page.waitForURL(`${server.url}/settings/tokens`);
    expect(await page.locator("[data-account-menu] summary").innerText()).toContain("alice@corp.example");
    const cookie = (await context.cookies(server.url)).find((c) => c.name === "modelyard_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await waitForHydration(page, "input[name=name]");
    await page.locator("input[name=name]").fill("notebook");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.locator("[data-token-value]").innerText()).trim();
    secrets.push(token);
    expect(token).toMatch(/^myd_[A-Za-z0-9_-]{40}$/);
    expect(await page.locator("[data-token-table]").innerText()).toContain("notebook");
    // Shown once: a reload lists the token by its prefix only.
    await page.reload();
    expect(await page.content()).not.toContain(token);
    expect(await page.locator("[data-token-table]").innerText()).toContain(token.slice(0, 10));

    const used = await inference({ Authorization: `Bearer ${token}` });
    expect(used.status, await used.clone().text()).toBe(200);
    expect(sim.requests.filter((r) => r.service === "router")).toHaveLength(1);

    await page.getByRole("button", { name: "Revoke notebook" }).click();
    await page.getByText("Revoked. It no longer works anywhere.").waitFor();
    const after = await inference({ Authorization: `Bearer ${token}` });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe("invalid_token");
  });

  it("refuses an OpenID identity the allow-list does not name, and says why", async () => {
    await page.goto(`${server.url}/login`);
    await page.getByRole("link", { name: /Sign in with/ }).click();
    await page.waitForURL((u) => u.origin === oidc.issuer);
    await page.locator("input[name=login]").fill("mallory@elsewhere.example");
    await page.locator("input[name=password]").fill("any");
    await page.locator("button[type=submit]").click();
    await page.locator("button[type=submit]", { hasText: /continue/i }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    expect(page.url()).toBe(`${server.url}/login?error=not_allowed`);
    expect(await page.getByRole("alert").innerText()).toContain("Your e-mail address is not allowed to sign in here. Ask an admin to invite you.");
  });

  it("shows only the sign-in page's own error texts, never words from its address", async () => {
    await page.goto(`${server.url}/login?error=failed&message=${encodeURIComponent("Your account is locked: call +1 555 0100 now")}`);
    const alert = await page.getByRole("alert").innerText();
    expect(alert).toContain("Signing in through the identity provider failed.");
    expect(await page.content()).not.toContain("555 0100");
    for (const code of ["Your account is locked: call +1 555 0100 now", "constructor", "toString"]) {
      await page.goto(`${server.url}/login?error=${encodeURIComponent(code)}`);
      expect(await page.getByRole("alert").count()).toBe(0);
      expect(await page.content()).not.toContain("555 0100");
    }
  });

  it("invites a local account with the CLI; its one-time link sets a password, which then signs in", async () => {
    const out = await runModelyard(server.databaseUrl, ["users", "add", "carol@example.com", "--role", "member"], { MODELYARD_PUBLIC_URL: server.url });
    const link = /(http:\/\/\S+\/invite\/\S+)/.exec(out)?.[1];
    expect(link, out).toBeDefined();
    secrets.push(link!.split("/").pop()!);
    await page.goto(link!);
    expect(await page.locator("main").innerText()).toContain("carol@example.com");
    await page.locator("input[name=password]").fill("a long local password");
    await page.locator("input[name=confirm]").fill("a long local password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.waitForURL(`${server.url}/settings/tokens?welcome=1`);
    // The link is used up; one never issued reads the same, as nothing tells them apart.
    expect((await page.goto(link!))?.status()).toBe(404);
    expect(await page.getByRole("alert").innerText()).toContain("it was already used, it has expired (links last 24 hours), or it was never issued");
    expect((await page.goto(`${server.url}/invite/never-issued-0123456789`))?.status()).toBe(404);
    expect(await page.getByRole("alert").innerText()).toContain("or it was never issued");

    // Sign out, then in with the password.
    await page.goto(`${server.url}/`);
    await page.locator("[data-account-menu] summary").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    await page.goto(`${server.url}/login`);
    await page.locator("input[name=email]").fill("carol@example.com");
    await page.locator("input[name=password]").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("The e-mail or password is wrong.").waitFor();
    await page.locator("input[name=password]").fill("a long local password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.locator("[data-account-menu] summary").innerText()).toContain("carol@example.com");
  });
});

async function signInWithOidc(who: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByRole("link", { name: /Sign in with/ }).click();
  await page.waitForURL((u) => u.origin === oidc.issuer);
  await page.locator("input[name=login]").fill(who);
  await page.locator("input[name=password]").fill("any");
  await page.locator("button[type=submit]").click();
  await page.locator("button[type=submit]", { hasText: /continue/i }).click();
  await page.waitForURL(`${server.url}/`);
}

describe("the account pages", () => {
  it("an admin sees people, tokens and usage; each page passes axe, shot light and dark, phone and desktop", async () => {
    await signInWithOidc("boss@corp.example");
    expect(await page.locator("[data-account-menu] summary").innerText()).toContain("boss@corp.example");
    // Some usage to show: calls on a token, and one refused anonymous call.
    const out = await runModelyard(server.databaseUrl, ["tokens", "create", "boss@corp.example", "--name", "batch jobs", "--rpm", "100"]);
    const token = /(myd_\S+)/.exec(out)![1]!;
    secrets.push(token);
    for (let i = 0; i < 3; i++) expect((await inference({ Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await inference({})).status).toBe(401);

    await page.goto(`${server.url}/admin`);
    const people = await page.locator("[data-people]").innerText();
    expect(people).toContain("boss@corp.example");
    expect(people).toContain("admin");
    await page.goto(`${server.url}/admin/usage?days=7`);
    await page.locator("[data-usage-records]").waitFor();
    expect(await page.locator("[data-usage-records]").innerText()).toContain("boss@corp.example");
    const csv = await page.evaluate(async () => (await fetch("/admin/usage.csv?days=7")).text());
    expect(csv.split("\r\n")[0]).toBe("at,subject,user_id,token_id,model,provider,task,endpoint,paid_by,status,duration_ms,ttft_ms,tokens_in,tokens_out,bill_to");
    expect(csv).toContain("boss@corp.example");
    expect(csv).not.toContain(token);
    const shots: Array<[string, string]> = [
      ["tokens", "/settings/tokens"],
      ["my-usage", "/settings/usage"],
      ["admin-people", "/admin"],
      ["admin-tokens", "/admin/tokens"],
      ["admin-usage", "/admin/usage?days=7"],
    ];
    for (const [name, url] of shots) {
      await page.goto(`${server.url}${url}`);
      const violations = await runAxe(page);
      expect(violations, `${url}:\n${describeViolations(violations)}`).toEqual([]);
      for (const [device, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]] as const) {
        await page.setViewportSize(viewport);
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: screenshot(`${name}-${device}-${scheme}.png`), fullPage: true });
        }
      }
      await page.setViewportSize({ width: 1200, height: 900 });
      await page.emulateMedia({ colorScheme: "light" });
    }
    // The sign-in page, signed out.
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await allowOnlyLoopback(fresh);
    const signedOut = await fresh.newPage();
    await signedOut.goto(`${server.url}/login`);
    const violations = await runAxe(signedOut);
    expect(violations, describeViolations(violations)).toEqual([]);
    for (const [device, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]] as const) {
      await signedOut.setViewportSize(viewport);
      for (const scheme of ["light", "dark"] as const) {
        await signedOut.emulateMedia({ colorScheme: scheme });
        await signedOut.screenshot({ path: screenshot(`sign-in-${device}-${scheme}.png`), fullPage: true });
      }
    }
    // The admin makes the site private: a signed-out visitor is sent to sign in, the API asks for a token.
    await page.goto(`${server.url}/admin`);
    await page.locator("[data-policy-form] input[value=private]").check();
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("The policy is now private.").waitFor();
    await signedOut.goto(`${server.url}/models`);
    expect(new URL(signedOut.url()).pathname).toBe("/login");
    expect(await signedOut.locator("main").innerText()).toContain("This Modelyard is private");
    const api = await fetch(`${server.url}/api/models`);
    expect(api.status).toBe(401);
    // Sent as written (fetch would resolve them first), dot segments after /assets/ once passed the
    // gate as an asset and reached the page or API they resolve to.
    for (const [raw, status] of [["/assets/../api/models", 401], ["/assets/%2e%2e/api/models?search=llama", 401], ["/assets/..\\api/models", 401], ["/assets/../models", 302], ["/assets/../models.data", 302]] as const) {
      expect(await rawStatus(server.url, raw), raw).toBe(status);
    }
    // A token reads a private site with its `read` scope; one made for inference alone may not.
    const tokenWith = async (scopes: string) => {
      const made = /(myd_\S+)/.exec(await runModelyard(server.databaseUrl, ["tokens", "create", "boss@corp.example", "--name", scopes, "--scopes", scopes]))![1]!;
      secrets.push(made);
      return { Authorization: `Bearer ${made}` };
    };
    const reader = await tokenWith("read");
    expect((await fetch(`${server.url}/api/models`, { headers: reader })).status).toBe(200);
    const caller = await tokenWith("inference");
    const refused = await fetch(`${server.url}/api/models`, { headers: caller });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
    expect((await inference(caller)).status).toBe(200);
    expect(await page.locator("[data-account-menu] summary").count()).toBe(1);
    await page.locator("[data-policy-form] input[value=default]").check();
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("The policy follows MODELYARD_ACCESS again.").waitFor();
    expect((await fetch(`${server.url}/api/models`)).status).toBe(200);
    await fresh.close();
  });
});

describe("an anonymous visitor", () => {
  it("is refused the server's key in the chat demo and told to sign in or bring a token", async () => {
    await page.goto(`${server.url}/playground/${CHAT_MODEL}`);
    await page.waitForSelector("[data-chat-demo]");
    expect(await page.locator("[data-chat-demo]").innerText()).toContain("Sign in to use this site’s key, or add your own token");
    await page.locator("[data-chat-demo] select[name=provider]").selectOption("together");
    const box = page.locator("textarea[name=message]");
    await box.fill("hello");
    await expect.poll(() => page.locator("[data-chat-demo]").getByRole("button", { name: "Send" }).isEnabled(), { timeout: 15_000 }).toBe(true);
    await box.press("Enter");
    const alert = page.locator('[data-chat-error="sign_in_required"]');
    await alert.waitFor();
    expect(await alert.innerText()).toContain("Sign in to run this on the server's keys");
    expect(await alert.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(`/login?redirectTo=${encodeURIComponent(`/playground/${CHAT_MODEL}`)}`);
    expect(sim.requests.filter((r) => r.service !== "hub")).toEqual([]);
  });
});

describe("a page on another origin", () => {
  const evil = setupService("The other origin's page", async () => {
    // Served as "localhost", another origin (and site) than the server's 127.0.0.1.
    const target = `${server.url}/api/inference`;
    const html = `<!doctype html><title>evil</title>
<iframe name="sink"></iframe>
<form id="f" method="post" action="${target}" enctype="multipart/form-data" target="sink"><input name="request" value='${chatBody}'></form>
<script>
  window.results = [];
  document.getElementById("f").submit();
  fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", body: new Blob([${JSON.stringify(chatBody)}], { type: "text/plain" }), credentials: "include" })
    .then(() => results.push("no-cors sent"), (e) => results.push("no-cors failed"));
  fetch(${JSON.stringify(target)}, { method: "POST", headers: { "Content-Type": "application/json" }, body: ${JSON.stringify(chatBody)}, credentials: "include" })
    .then((r) => results.push("cors " + r.status), () => results.push("cors blocked"));
  const fd = new FormData(); fd.append("request", ${JSON.stringify(chatBody)});
  fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", body: fd, credentials: "include" })
    .then(() => results.push("multipart sent"), () => results.push("multipart failed"));
</script>`;
    const site = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(html));
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    return { url: `http://localhost:${(site.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => site.close(() => resolve())) };
  }, (site) => site.close());

  it("cannot spend the server's key through a signed-in member's browser", async () => {
    // The visitor is signed in, so the browser holds a session cookie for the site.
    await signInWithOidc("bob@corp.example");
    const before = server.output().length;

    await page.goto(evil.url);
    await expect.poll(() => page.evaluate(() => (window as unknown as { results: string[] }).results.length), { timeout: 15_000 }).toBe(3);
    // Every attempt reached the server and was turned away before anything was read or spent.
    await expect.poll(() => (server.output().slice(before).match(/"msg":"inference"/g) ?? []).length, { timeout: 2_000 }).toBe(0);
    expect(sim.requests.filter((r) => r.service !== "hub")).toEqual([]);
    const refused = await fetch(`${server.url}/api/inference`, { method: "POST", headers: { Origin: evil.url.slice(0, -1), "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" }, body: chatBody });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("cross_site_refused");
  });
});

/** The status of a GET sent with its path exactly as written (no dot segment resolved). */
function rawStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: hostname, port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
  });
}
