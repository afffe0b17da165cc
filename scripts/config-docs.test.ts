import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_FAMILIES, CONFIG_VARS } from "#app/utils/env.server.ts";
import { ENV_EXAMPLE, README, TABLE_END, TABLE_START, configTable, envExample, withConfigTable } from "./config-docs.ts";

describe("the configuration docs follow app/utils/env.server.ts", () => {
  it("README.md's configuration table is the generated one (run `npm run config:docs`)", () => {
    const readme = fs.readFileSync(README, "utf8");
    expect(readme).toBe(withConfigTable(readme));
  });

  it(".env.example is the generated one (run `npm run config:docs`)", () => {
    expect(fs.readFileSync(ENV_EXAMPLE, "utf8")).toBe(envExample());
  });

  it("list every variable and family once, and no secret's value", () => {
    const table = configTable();
    const example = envExample();
    for (const [name, spec] of Object.entries(CONFIG_VARS)) {
      expect(table.split(`| \`${name}\` |`).length - 1, name).toBe(1);
      const line = example.split("\n").filter((l) => l.startsWith(`# ${name}=`));
      expect(line, name).toHaveLength(1);
      if ("secret" in spec) expect(line[0], name).toBe(`# ${name}=`);
    }
    for (const family of Object.values(CONFIG_FAMILIES)) {
      expect(table).toContain(`| \`${family.pattern}\` |`);
      expect(example).toContain(`\n# ${family.example}=\n`);
    }
  });

  it("refuses a README without the markers rather than losing the table", () => {
    expect(() => withConfigTable("# Modelyard\n")).toThrow(/lacks the markers/);
    expect(withConfigTable(`a\n${TABLE_START}\nold\n${TABLE_END}\nb`)).toBe(`a\n${TABLE_START}\n${configTable()}\n${TABLE_END}\nb`);
  });
});
