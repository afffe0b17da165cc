import { describe, expect, it } from "vitest";
import { createLogger, secretValues } from "#app/utils/logger.server.ts";

function capture(level = "info", secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({ level, pretty: false, write: (line) => lines.push(line), secrets });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("the process's log", () => {
  it("writes one JSON object a line, with the level's name, an ISO time and the fields", () => {
    const { logger, lines, parsed } = capture();
    logger.info({ req_id: "abc", status: 200 }, "request");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    const [line] = parsed();
    expect(line).toMatchObject({ level: "info", msg: "request", req_id: "abc", status: 200, pid: process.pid });
    expect(String(line?.["time"])).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("writes nothing below LOG_LEVEL", () => {
    const { logger, lines } = capture("warn");
    logger.info("quiet");
    logger.warn("loud");
    expect(lines).toHaveLength(1);
  });

  it("scrubs the declared secrets' values and anything shaped like a token from every line", () => {
    const { logger, lines } = capture("info", ["postgres://u:pw-for-the-db@db/x", "sk-server-provider-key-1"]);
    logger.info({ url: "postgres://u:pw-for-the-db@db/x", note: "key sk-server-provider-key-1 and hf_abcdefghijklmnop" }, "Bearer myd_abcdefghijklmnopqrstuvwxyz failed");
    expect(lines[0]).not.toMatch(/pw-for-the-db|sk-server|hf_abcdef|myd_abcdef/);
    expect(lines[0]).toContain("[redacted]");
    expect(() => JSON.parse(lines[0]!) as unknown).not.toThrow();
  });

  it("takes as secrets exactly the variables the configuration declares secret", () => {
    const secrets = secretValues({ DATABASE_URL: "postgres://a:b@c/d", HF_TOKEN: "hf_x", MODELYARD_PROVIDER_KEY_TOGETHER: "tk", MODELYARD_METRICS_TOKEN: "metrics-token-123456", PORT: "3000", MODELYARD_HUB_URL: "https://hub" });
    expect(secrets.sort()).toEqual(["hf_x", "metrics-token-123456", "postgres://a:b@c/d", "tk"]);
  });
});
