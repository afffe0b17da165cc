import { describe, expect, it } from "vitest";
import { createSliceSizer, yieldToEventLoop } from "#app/utils/time-slice.server.ts";

describe("slice sizer", () => {
  it("shrinks a slow slice to the budget at once and grows a fast one at most twofold a step", () => {
    const s = createSliceSizer({ initial: 1_000, min: 25, max: 4_000, budgetMs: 2 });
    s.record(10, 1_000); // 100 rows/ms → 200 rows for 2 ms
    expect(s.size).toBe(200);
    s.record(0.1, 200); // very fast: still only doubles
    expect(s.size).toBe(400);
    s.record(1_000, 400); // pathological: never below the floor
    expect(s.size).toBe(25);
  });
});

describe("yieldToEventLoop", () => {
  const busy = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // A slice's synchronous work.
    }
  };

  it("resumes one waiting slice per turn of the event loop, in the order they yielded, so a due timer runs between two", async () => {
    const order: string[] = [];
    const slice = async (name: string) => {
      await yieldToEventLoop();
      order.push(name);
      if (name === "a") {
        // Due in 1 ms; the slice itself takes 3. With every slice resumed in one check phase, the
        // timer would wait for b and c as well.
        setTimeout(() => order.push("timer"), 0);
        busy(3);
      }
    };
    await Promise.all([slice("a"), slice("b"), slice("c")]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(["a", "timer", "b", "c"]);
  });

  it("resumes a slice that yields again after those already waiting", async () => {
    const order: string[] = [];
    const twice = async () => {
      await yieldToEventLoop();
      order.push("x1");
      await yieldToEventLoop();
      order.push("x2");
    };
    const once = async () => {
      await yieldToEventLoop();
      order.push("y");
    };
    await Promise.all([twice(), once()]);
    expect(order).toEqual(["x1", "y", "x2"]);
  });
});
