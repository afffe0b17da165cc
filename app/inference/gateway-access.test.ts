/**
 * Who may spend the server's keys, through the gateway over real sockets (ADR 0038): the default
 * `members` policy, API tokens and their scopes, cost caps, billTo, usage records, and a quota
 * counted in one database by two gateway instances. Providers are the SIMULATOR; the accounts
 * database runs on every engine the suite has (SQLite, and PostgreSQL with TEST_DATABASE_URL).
 */
import { readCounter } from "#app/db/queries/usage.server.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addPerson, createPersonalToken } from "#app/auth/accounts.server.ts";
import { setPolicyOverride } from "#app/auth/policy.server.ts";
import { abortWaitingCalls } from "#app/inference/execute.server.ts";
import { createInferenceGateway } from "#app/inference/gateway.server.ts";
import { endActiveStreams } from "#app/inference/stream.server.ts";
import { createStreamEventParser, type StreamEvent } from "#app/inference/stream-events.ts";
import { buildTestCatalog, serveGateway, type ServedGateway, type TestCatalog } from "#tests/inference/serve-gateway.ts";
import { TASK_MODELS } from "#tests/inference/task-models.ts";
import { HUB_FIXTURE_MODELS } from "#tests/simulators/hub-fixture.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

const SERVER_TOKEN = "hf_serverAccessKey0987654321";
const VISITOR_TOKEN = "hf_visitorAccessKey1234567890";
const CHAT_MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const BASE_MODEL = "meta-llama/Llama-3.1-8B";
const PROMPT = "a prompt that must never be recorded 7f3a";

let sim: ProviderSimulator;
let catalogue: TestCatalog;

beforeAll(async () => {
  const models = [...HUB_FIXTURE_MODELS, ...TASK_MODELS.filter((m) => m.id === BASE_MODEL)];
  sim = await startProviderSimulator({ hubModels: models });
  catalogue = await buildTestCatalog(models.map((m) => ({ ...m })));
});

afterAll(async () => {
  await sim?.close();
  await catalogue?.drop();
});

beforeEach(() => sim.reset());

const chat = (extra: Record<string, unknown> = {}) => ({ model: CHAT_MODEL, provider: "together", messages: [{ role: "user", content: PROMPT }], ...extra });

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  const json = JSON.parse(text) as { error?: { code: string; message: string; field?: string | null } };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), error: json.error, text };
}

const today = () => Math.floor(Date.now() / 86_400_000);
const callerLines = (tokenId: string) => logs.filter((l) => l.includes(`caller=token:${tokenId}`));
const callsLogged = (tokenId: string) => callerLines(tokenId).length;

/** What the gateway charged a token's calls, as its log lines say: the provider's counts and its own estimates. */
function chargedInLogs(tokenId: string): number {
  let n = 0;
  for (const line of callerLines(tokenId)) for (const field of ["tokens_in", "tokens_out", "tokens_est"]) n += Number(new RegExp(`\\b${field}=(\\d+)`).exec(line)?.[1] ?? 0);
  return n;
}

const logs: string[] = [];

describe.each(testDialects())("access to the server's keys, accounts on $name", (dialect) => {
  let accounts: TestDatabase;
  const servers: ServedGateway[] = [];
  let memberToken: string;
  let readOnlyToken: string;
  let quotaToken: string;

  async function start(env: Record<string, string> = {}): Promise<string> {
    const gateway = createInferenceGateway({
      catalog: catalogue.catalog,
      database: () => accounts.handle.db,
      env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: SERVER_TOKEN, MODELYARD_INFERENCE_MAX_RETRIES: "0", ...env },
      log: (line) => logs.push(line),
    });
    const served = await serveGateway(gateway);
    servers.push(served);
    return served.url;
  }

  beforeAll(async () => {
    accounts = await dialect.create();
    const { user } = await addPerson(accounts.handle.db, { email: "member@example.com", role: "member" }, "http://x");
    memberToken = (await createPersonalToken(accounts.handle.db, user.id, { name: "all", expiresInDays: 30, scopes: ["read", "inference"], rpm: null, tokensPerDay: null })).token;
    readOnlyToken = (await createPersonalToken(accounts.handle.db, user.id, { name: "read", expiresInDays: 30, scopes: ["read"], rpm: null, tokensPerDay: null })).token;
    quotaToken = (await createPersonalToken(accounts.handle.db, user.id, { name: "quota", expiresInDays: null, scopes: ["inference"], rpm: 4, tokensPerDay: null })).token;
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) await s.close();
    await accounts?.drop();
  });

  it("refuses an anonymous call on the server's key, and says how to get in, without calling a provider", async () => {
    const url = await start();
    const a = await post(url, chat());
    expect(a.status).toBe(401);
    expect(a.error).toMatchObject({ code: "sign_in_required" });
    expect(a.error?.message).toMatch(/sign in, send a Modelyard API token .* or send your own provider token in X-Provider-Token/);
    expect(sim.requests.filter((r) => r.service !== "hub")).toEqual([]);
  });

  it("runs an anonymous call on the visitor's own token, and a member's API token on the server's", async () => {
    const url = await start();
    logs.length = 0;
    const own = await post(url, chat(), { "X-Provider-Token": VISITOR_TOKEN });
    expect(own.status, own.text).toBe(200);
    const member = await post(url, chat(), { Authorization: `Bearer ${memberToken}` });
    expect(member.status, member.text).toBe(200);
    const calls = sim.requests.filter((r) => r.service === "router");
    expect(calls.map((r) => r.authorization.tokenKind)).toEqual(["hf-token", "hf-token"]);
    // The simulator keeps no token, so the gateway's log says whose key each call spent.
    expect(logs.map((l) => /auth=(\S+)/.exec(l)?.[1])).toEqual(["visitor", "server-hf-token"]);
    expect(logs[1]).toMatch(/caller=token:tok_/);
  });

  it("refuses a token without the inference scope (403) and a provider token in Authorization (401)", async () => {
    const url = await start();
    expect((await post(url, chat(), { Authorization: `Bearer ${readOnlyToken}` })).error).toMatchObject({ code: "insufficient_scope" });
    const wrong = await post(url, chat(), { Authorization: `Bearer ${VISITOR_TOKEN}` });
    expect(wrong.status).toBe(401);
    expect(wrong.error).toMatchObject({ code: "invalid_token", field: "Authorization" });
  });

  it("caps a call's cost with a 400 naming the field, before any provider is called", async () => {
    const url = await start();
    const a = await post(url, chat({ parameters: { n: 1_000_000, max_tokens: 2_000_000_000 } }), { Authorization: `Bearer ${memberToken}` });
    expect(a.status).toBe(400);
    expect(a.error).toMatchObject({ field: "parameters.n" });
    const b = await post(url, chat({ parameters: { max_tokens: 5000 } }), { Authorization: `Bearer ${memberToken}` });
    expect(b.error).toMatchObject({ field: "parameters.max_tokens", message: "parameters.max_tokens is 5000, above this server's bound of 4096 tokens per call." });
    const raised = await start({ MODELYARD_CAP_MAX_TOKENS: "8192" });
    expect((await post(raised, chat({ parameters: { max_tokens: 5000 } }), { Authorization: `Bearer ${memberToken}` })).status).toBe(200);
    expect(sim.requests.filter((r) => r.service === "router")).toHaveLength(1);
  });

  it("bounds a call on the server's key that sets no length at the token cap, and leaves the visitor's own as sent", async () => {
    const url = await start({ MODELYARD_CAP_MAX_TOKENS: "300" });
    expect((await post(url, chat(), { Authorization: `Bearer ${memberToken}` })).status).toBe(200);
    expect((await post(url, chat({ parameters: { max_tokens: 20 } }), { Authorization: `Bearer ${memberToken}` })).status).toBe(200);
    expect((await post(url, chat(), { "X-Provider-Token": VISITOR_TOKEN })).status).toBe(200);
    const sent = sim.requests.filter((r) => r.service === "router").map((r) => (r.bodyJson as { max_tokens?: number }).max_tokens);
    expect(sent).toEqual([300, 20, undefined]);
  });

  it("charges a daily token quota for a text-generating call whose provider reports no token counts", async () => {
    const db = accounts.handle.db;
    const { user } = await addPerson(db, { email: "summaries@example.com", role: "member" }, "http://x");
    const token = (await createPersonalToken(db, user.id, { name: "quota", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay: 20 })).token;
    const url = await start();
    const inputs = "The tower is 324 metres tall. It was the tallest man-made structure.";
    // Its worst case, held before the call, is its input and the 2 tokens asked for: 20, which fits.
    const summarize = { model: "facebook/bart-large-cnn", provider: "hf-inference", task: "summarization", inputs, parameters: { generate_parameters: { max_new_tokens: 20 - Math.ceil(inputs.length / 4) } } };
    const first = await post(url, summarize, { Authorization: `Bearer ${token}` });
    expect(first.status, first.text).toBe(200);
    // No `usage` in a summary: charged its input and answer at four characters a token, past 20.
    const summary = (JSON.parse(first.text) as { output: { summary_text: string } }).output.summary_text;
    const key = `tokens:user:${user.id}`;
    const day = Math.floor(Date.now() / 86_400_000);
    await expect.poll(() => readCounter(db, key, day)).toBe(Math.ceil((summarize.inputs.length + summary.length) / 4));
    expect(logs.some((l) => /tokens_est=\d+/.test(l))).toBe(true);
    const refused = await post(url, summarize, { Authorization: `Bearer ${token}` });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "quota_exceeded" });
  });

  it("charges a stream's prompt, estimated, when the provider reports no prompt tokens", async () => {
    const db = accounts.handle.db;
    const { user } = await addPerson(db, { email: "streams@example.com", role: "member" }, "http://x");
    const token = (await createPersonalToken(db, user.id, { name: "stream quota", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay: 10_000 })).token;
    const url = await start();
    const inputs = "Once upon a time, in a land of long prompts that a quota must still count,";
    const res = await fetch(`${url}/api/inference`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ model: BASE_MODEL, provider: "hf-inference", task: "text-generation", inputs, stream: true }),
    });
    const events: StreamEvent[] = [];
    const text = await res.text();
    createStreamEventParser((e) => events.push(e))(text);
    const final = events.find((e): e is Extract<StreamEvent, { type: "final" }> => e.type === "final");
    expect(final, text).toBeDefined();
    // Asked for no `details`, TGI's stream carries no counts: the gateway counts the tokens it
    // passed on, and the prompt is estimated.
    expect(final?.usage).toMatchObject({ promptTokens: null, source: "counted" });
    const generated = final?.usage.completionTokens ?? 0;
    expect(generated).toBeGreaterThan(0);
    const day = Math.floor(Date.now() / 86_400_000);
    await expect.poll(() => readCounter(db, `tokens:user:${user.id}`, day)).toBe(generated + Math.ceil(inputs.length / 4));
    expect(logs.some((l) => l.includes(`tokens_est=${Math.ceil(inputs.length / 4)}`) && l.includes("stream=1"))).toBe(true);
  });

  async function tokenWithDailyQuota(email: string, tokensPerDay: number): Promise<{ token: string; id: string }> {
    const { user } = await addPerson(accounts.handle.db, { email, role: "member" }, "http://x");
    const made = await createPersonalToken(accounts.handle.db, user.id, { name: "budget", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay });
    return { token: made.token, id: made.id };
  }

  it("holds 40 parallel calls to a daily token quota: only those whose worst case fits run, and the counter ends at their real cost", async () => {
    const db = accounts.handle.db;
    const { token, id } = await tokenWithDailyQuota("parallel@example.com", 200);
    const url = await start();
    // Each call waits at the provider, so all 40 are admitted or refused before any ends.
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 1500, times: "forever" });
    // A call's worst case: its prompt at four characters a token (the role and the text), and 10 tokens.
    const worst = Math.ceil(("user".length + PROMPT.length) / 4) + 10;
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(url, chat({ parameters: { max_tokens: 10 } }), { Authorization: `Bearer ${token}` })));
    const ran = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThanOrEqual(Math.floor(200 / worst));
    expect(ran.length + refused.length).toBe(40);
    expect(refused.every((a) => a.error?.code === "quota_exceeded" && Number(a.retryAfter) >= 1)).toBe(true);
    expect(sim.requests.filter((r) => r.service === "router")).toHaveLength(ran.length);
    await expect.poll(() => callsLogged(id)).toBe(40);
    const charged = chargedInLogs(id);
    expect(charged).toBeGreaterThan(0);
    await expect.poll(() => readCounter(db, `tokens:token:${id}`, today())).toBe(charged);
    expect(charged).toBeLessThanOrEqual(200);
  });

  it("gives a call's reservation back however it fails, and charges a cut stream what it streamed", async () => {
    const db = accounts.handle.db;
    const { token, id } = await tokenWithDailyQuota("failures@example.com", 100_000);
    const url = await start({ MODELYARD_INFERENCE_DEADLINE_MS: "1000" });
    const auth = { Authorization: `Bearer ${token}` };
    const counter = () => readCounter(db, `tokens:token:${id}`, today());
    const routed = () => sim.requests.filter((r) => r.service === "router").length;

    sim.scriptFault({ provider: "together" }, { kind: "error", status: 500 });
    expect((await post(url, chat(), auth)).status).toBe(502);
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 3000 });
    expect((await post(url, chat(), auth)).status).toBe(504);
    // The visitor goes away while the provider has not answered.
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 3000 });
    const leaving = new AbortController();
    const left = fetch(`${url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: JSON.stringify(chat()), signal: leaving.signal }).catch(() => undefined);
    await expect.poll(routed).toBe(3);
    leaving.abort();
    await left;
    await expect.poll(() => callsLogged(id)).toBe(3);
    await expect.poll(counter).toBe(0);

    // The provider cuts a stream after two tokens.
    sim.scriptFault({ provider: "together" }, { kind: "mid-stream-error", afterChunks: 2 });
    const cut = await fetch(`${url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: JSON.stringify(chat({ stream: true })) });
    expect(await cut.text()).toContain("event: error");
    // The visitor leaves a stream after its first token.
    sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 300 });
    const reading = new AbortController();
    const read = await fetch(`${url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: JSON.stringify(chat({ stream: true })), signal: reading.signal });
    const reader = read.body!.getReader();
    while (!new TextDecoder().decode((await reader.read()).value).includes('"type":"token"'));
    reading.abort();
    await expect.poll(() => callsLogged(id)).toBe(5);
    // Each stream is charged its prompt (estimated) and the tokens it streamed, and nothing is left held.
    const prompt = Math.ceil(("user".length + PROMPT.length) / 4);
    const charged = chargedInLogs(id);
    expect(charged).toBeGreaterThanOrEqual(2 * prompt + 2 + 1);
    expect(charged).toBeLessThan(2 * (prompt + 50));
    await expect.poll(counter).toBe(charged);
  });

  it("refuses billTo on the server's key unless the organisation is allowed, and logs it when used", async () => {
    const url = await start();
    const refused = await post(url, chat({ billTo: "huggingface" }), { Authorization: `Bearer ${memberToken}` });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: "bill_to_not_allowed", field: "billTo" });
    const allowed = await start({ MODELYARD_BILL_TO_ALLOWED: "huggingface" });
    logs.length = 0;
    expect((await post(allowed, chat({ billTo: "huggingface" }), { Authorization: `Bearer ${memberToken}` })).status).toBe(200);
    expect(sim.requests.find((r) => r.service === "router")?.headers["x-hf-bill-to"]).toBe("huggingface");
    expect(logs.some((l) => l.includes("bill_to=huggingface") && l.includes("auth=server-hf-token"))).toBe(true);
  });

  it("records every call (who, model, provider, whose key paid, status), and no prompt or token anywhere", async () => {
    // Records are written after each answer: an earlier test's last one may still land. Count from now.
    const since = new Date().toISOString();
    const url = await start();
    await post(url, chat(), { Authorization: `Bearer ${memberToken}` });
    await post(url, chat(), { "X-Provider-Token": VISITOR_TOKEN });
    await post(url, chat());
    const recorded = () => accounts.handle.db.selectFrom("usage_records").selectAll().where("at", ">=", since).execute();
    await expect.poll(async () => (await recorded()).length).toBe(3);
    const rows = await recorded();
    // Written after each answer, over a pool on PostgreSQL: their ids need not follow the calls' order.
    const member = rows.find((r) => r.subject === "member@example.com");
    expect(rows.map((r) => [r.subject, r.paid_by, r.status, r.provider, r.model, r.task])).toEqual(
      expect.arrayContaining([
        ["member@example.com", "server", 200, "together", CHAT_MODEL, "conversational"],
        ["anonymous", "visitor", 200, "together", CHAT_MODEL, "conversational"],
        ["anonymous", "none", 401, null, null, null],
      ]),
    );
    expect(member?.token_id).toMatch(/^tok_/);
    expect(member?.tokens_out).toBeGreaterThan(0);
    const everything = JSON.stringify(rows) + logs.join("\n");
    for (const secret of [PROMPT, memberToken, VISITOR_TOKEN, SERVER_TOKEN]) expect(everything).not.toContain(secret);
  });

  it("follows an admin's policy kept in the database over MODELYARD_ACCESS, on every gateway", async () => {
    const url = await start();
    await setPolicyOverride(accounts.handle.db, "open");
    const anonymous = await post(url, chat());
    expect(anonymous.status, anonymous.text).toBe(200);
    await setPolicyOverride(accounts.handle.db, null);
    expect((await post(url, chat())).status).toBe(401);
  });

  it("holds a token's quota of 4 requests a minute across two gateway instances on one database", async () => {
    const a = await start();
    const b = await start();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const r = await post(i % 2 === 0 ? a : b, chat(), { Authorization: `Bearer ${quotaToken}` });
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.retryAfter;
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });
});

// Last in this file: once shutdown has begun, this module's gateways cut every later call short,
// so one shutdown covers every engine at once.
describe("a daily token quota at shutdown", () => {
  it("gives back the reservations of the calls shutdown aborts and the streams it ends, on every engine", async () => {
    const setups = await Promise.all(
      testDialects().map(async (dialect) => {
        const accounts = await dialect.create();
        const { user } = await addPerson(accounts.handle.db, { email: "shutdown@example.com", role: "member" }, "http://x");
        const made = await createPersonalToken(accounts.handle.db, user.id, { name: "budget", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay: 100_000 });
        const gateway = createInferenceGateway({
          catalog: catalogue.catalog,
          database: () => accounts.handle.db,
          env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: SERVER_TOKEN, MODELYARD_INFERENCE_MAX_RETRIES: "0" },
          log: (line) => logs.push(line),
        });
        const served = await serveGateway(gateway);
        const request = (body: unknown) => fetch(`${served.url}/api/inference`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${made.token}` }, body: JSON.stringify(body) });
        return { accounts, served, tokenId: made.id, request };
      }),
    );
    try {
      const routed = () => sim.requests.filter((r) => r.service === "router").length;
      sim.scriptFault({ provider: "together", path: "/chat/completions" }, { kind: "slow", tokenDelayMs: 200, times: setups.length });
      for (const { request } of setups) {
        const reader = (await request(chat({ stream: true }))).body!.getReader();
        while (!new TextDecoder().decode((await reader.read()).value).includes('"type":"token"'));
      }
      sim.scriptFault({ provider: "together" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 5000, times: setups.length });
      const waiting = setups.map(({ request }) => request(chat()));
      await expect.poll(routed).toBe(2 * setups.length);
      abortWaitingCalls();
      endActiveStreams();
      for (const answer of await Promise.all(waiting)) expect(answer.status).toBe(503);
      for (const { accounts, tokenId } of setups) {
        await expect.poll(() => callsLogged(tokenId)).toBe(2);
        // The ended stream is charged its prompt and what it streamed; the aborted call nothing.
        const charged = chargedInLogs(tokenId);
        expect(charged).toBeGreaterThan(Math.ceil(("user".length + PROMPT.length) / 4));
        await expect.poll(() => readCounter(accounts.handle.db, `tokens:token:${tokenId}`, today())).toBe(charged);
      }
    } finally {
      for (const { served, accounts } of setups) {
        await served.close();
        await accounts.drop();
      }
    }
  });
});
