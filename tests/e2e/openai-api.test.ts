/**
 * The OpenAI-compatible /v1 on the real server (ADR 0040): the `openai` SDK with a token made by
 * the CLI, the cross-site refusal in front of it, /docs/api, and the model page's "OpenAI-compatible
 * (this server)" code. Providers are the SIMULATOR.
 */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";
import { runModelyard } from "#tests/e2e/support/import-cli.ts";
import { screenshot, setupBrowser, setupOfflinePage, setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";

const LLAMA = "meta-llama/Llama-3.3-70B-Instruct";

let token = "";
const sim = setupSimulator({ options: { assetUrls: "real-host" } });
const server = setupServer(
  () => ({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_e2eV1ServerKey1234567890" } }),
  async (s) => {
    await runModelyard(s.databaseUrl, ["users", "add", "dev@example.com", "--role", "member"], { MODELYARD_PUBLIC_URL: s.url });
    token = /(myd_\S+)/.exec(await runModelyard(s.databaseUrl, ["tokens", "create", "dev@example.com", "--name", "editor"]))![1]!;
  },
);
const browser = setupBrowser();
const { page } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

describe("/v1 on the real server", () => {
  it("the openai SDK chats, streamed and not, with a token the CLI made", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
    const done = await client.chat.completions.create({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "hi from the e2e" }] });
    expect(done.choices[0]?.message.content).toContain("Simulated together reply");
    let text = "";
    for await (const chunk of await client.chat.completions.create({ model: `${LLAMA}:groq`, messages: [{ role: "user", content: "stream" }], stream: true })) {
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toContain("Simulated groq reply");
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain(LLAMA);
  });

  it("refuses a call another website's page makes, before it reaches a provider", async () => {
    sim.reset();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ model: `${LLAMA}:together`, messages: [{ role: "user", content: "spend their keys" }] }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: "permission_error", code: "cross_site_refused" });
    expect(sim.requests.filter((r) => r.service !== "hub")).toEqual([]);
    // Without a token the default `members` policy refuses in OpenAI's shape.
    const anonymous = await fetch(`${server.url}/v1/models`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe("authentication_error");
  });

  it("answers a bare /v1 and an unknown /v1 path with OpenAI's 404, not a page", async () => {
    for (const path of ["/v1", "/v1/", "/v1/nothing/here"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: "not_found_error", code: "unknown_url" });
    }
  });
});

describe("/docs/api and the model page's code", () => {
  it("/docs/api gives this server's base URL, the examples and the errors; axe passes; light and dark, phone and desktop", async () => {
    await page.goto(`${server.url}/docs/api`);
    const main = await page.locator("main").innerText();
    expect(main).toContain(`${server.url}/v1`);
    for (const title of ["openai (JavaScript)", "openai (Python)", "curl", "LangChain (JavaScript, @langchain/openai)", "LangChain (Python, langchain-openai)", "A chat UI's settings"]) {
      expect(main).toContain(title);
    }
    expect(main).toMatch(/x-inference-provider/);
    expect(main).toMatch(/authentication_error/);
    // The server's own 503s, which a client should retry, not only the provider's failures.
    expect(main).toContain("database_unavailable");
    expect(main).toContain("server_shutting_down");
    expect(describeViolations(await runAxe(page))).toBe("");
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]] as const) {
      for (const scheme of ["light", "dark"] as const) {
        const ctx = await browser.newContext({ viewport, colorScheme: scheme, isMobile: name === "phone" });
        await allowOnlyLoopback(ctx);
        const p = await ctx.newPage();
        await p.goto(`${server.url}/docs/api`);
        // On a phone the routes and errors tables scroll sideways, so axe asks that a keyboard can reach them.
        expect(describeViolations(await runAxe(p)), `${name} ${scheme}`).toBe("");
        expect(await p.evaluate(() => document.documentElement.scrollWidth), `${name} ${scheme}`).toBe(viewport.width);
        await p.screenshot({ path: screenshot(`docs-api-${name}-${scheme}.png`), fullPage: false });
        await ctx.close();
      }
    }
  });

  it("the footer's Hub-compatible API link leads to /docs/api's catalogue section, whose curl example answers as it says", async () => {
    await page.goto(`${server.url}/models`);
    await page.getByRole("contentinfo").getByRole("link", { name: "Hub-compatible API" }).click();
    await page.waitForURL(/\/docs\/api#hub$/);
    const section = page.locator("section[aria-labelledby=hub]");
    const text = await section.innerText();
    for (const name of ["search", "pipeline_tag", "inference_provider", "sort", "limit", "expand[]", "cursor"]) expect(text).toContain(name);
    expect(text).toContain("@huggingface/hub (JavaScript)");
    // The curl example's requests, as its text gives them: five models, a Link to the next five, and one model's providers.
    const curl = await section.locator("[data-code-block]").first().innerText();
    const urls = [...curl.matchAll(/curl -s(I?) "([^"]+)"/g)].map((m) => ({ head: m[1] === "I", url: m[2]! }));
    expect(urls).toHaveLength(3);
    const [list, head, one] = urls as [(typeof urls)[0], (typeof urls)[0], (typeof urls)[0]];
    const res = await fetch(list.url);
    expect(res.status).toBe(200);
    const models = (await res.json()) as Array<{ id: string }>;
    expect(models).toHaveLength(5);
    for (const m of models) expect(m.id.toLowerCase()).toContain("llama");
    expect(head.head).toBe(true);
    expect((await fetch(head.url, { method: "HEAD" })).headers.get("link")).toMatch(/rel="next"/);
    const model = (await (await fetch(one.url)).json()) as { inferenceProviderMapping?: Record<string, unknown> };
    expect(Object.keys(model.inferenceProviderMapping ?? {}).length).toBeGreaterThan(1);
  });

  it(`${LLAMA}'s code has an "OpenAI-compatible (this server)" tab calling this server's /v1 with the chosen provider`, async () => {
    await page.goto(`${server.url}/${LLAMA}?tab=inference&provider=together&lang=v1`);
    const panel = page.locator("[data-inference-panel]");
    await panel.waitFor();
    expect(await panel.locator("nav[aria-label=Language] a[aria-current=page]").innerText()).toBe("OpenAI-compatible (this server)");
    const code = await panel.locator("[data-code-block]").allInnerTexts();
    expect(code.join("\n")).toContain(`baseURL: "${server.url}/v1"`);
    expect(code.join("\n")).toContain(`"${LLAMA}:together"`);
    expect(code.join("\n")).toContain(`${server.url}/v1/chat/completions`);
  });
});
