import { describe, expect, it } from "vitest";
import { ALLOWANCE_MS, createSliceSizer, runAsRequest, runInBackground, yieldToEventLoop } from "#app/utils/time-slice.server.ts";

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

  it("resumes an API call's slices before a page's that arrived just before it, and background work last", async () => {
    const order: string[] = [];
    const slices = (name: string, n: number) => async () => {
      for (let i = 1; i <= n; i++) {
        await yieldToEventLoop();
        order.push(`${name}${i}`);
      }
    };
    const background = slices("bg", 2)();
    const page = runAsRequest("page", slices("page", 2));
    const api = runAsRequest("api", slices("api", 2));
    await Promise.all([background, page, api]);
    // The background slice yielded first, but it is due a page's allowance after it yielded, and
    // the page arrived later within that allowance: ties go by arrival, then yield order.
    expect(order).toEqual(["api1", "api2", "bg1", "page1", "page2", "bg2"]);
  });

  it("resumes a page older than the API allowance's lead before a newer API call", async () => {
    const order: string[] = [];
    const page = runAsRequest("page", async () => {
      // The page's first turn takes longer than the lead an API call has over it.
      busy(ALLOWANCE_MS.page - ALLOWANCE_MS.api + 5);
      await yieldToEventLoop();
      order.push("page");
    });
    const api = runAsRequest("api", async () => {
      await yieldToEventLoop();
      order.push("api");
    });
    await Promise.all([page, api]);
    expect(order).toEqual(["page", "api"]);
  });

  it("gives work a request starts in the background the background's due time, not the request's", async () => {
    const order: string[] = [];
    await runAsRequest("api", async () => {
      const job = runInBackground(async () => {
        await yieldToEventLoop();
        order.push("job");
      });
      const own = (async () => {
        await yieldToEventLoop();
        order.push("request");
      })();
      await Promise.all([job, own]);
    });
    expect(order).toEqual(["request", "job"]);
  });
});
