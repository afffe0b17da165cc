import { describe, expect, it } from "vitest";
import { boxToPercent, detections, hexToRgb, labelColours, PALETTE, scoredAnswers, segmentLegend, segments, tintMask } from "#app/demos/vision/output-shapes.ts";

const PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAG7buVgAAAABJRU5ErkJggg==";

describe("detections", () => {
  it("reads hf-inference's boxes, highest score first", () => {
    const out = detections([
      { label: "cat", score: 0.7, box: { xmin: 1, ymin: 2, xmax: 10, ymax: 12 } },
      { label: "remote", score: 0.9, box: { xmin: 0, ymin: 0, xmax: 4, ymax: 4 } },
    ]);
    expect(out?.map((d) => d.label)).toEqual(["remote", "cat"]);
  });

  it("is null for anything else, so the widget shows it raw", () => {
    expect(detections([{ label: "cat", score: 0.7, box: { x: 1 } }])).toBeNull();
    expect(detections({ label: "cat" })).toBeNull();
    expect(detections([])).toEqual([]);
  });
});

describe("boxToPercent", () => {
  it("scales a box in pixels to percent of the image's natural size", () => {
    expect(boxToPercent({ xmin: 160, ymin: 60, xmax: 480, ymax: 240 }, { width: 640, height: 480 })).toEqual({ x: 25, y: 12.5, width: 50, height: 37.5 });
  });

  it("clamps boxes that spill over the edge and drops ones wholly outside", () => {
    expect(boxToPercent({ xmin: -10, ymin: 8, xmax: 20, ymax: 30 }, { width: 16, height: 16 })).toEqual({ x: 0, y: 50, width: 100, height: 50 });
    expect(boxToPercent({ xmin: 20, ymin: 0, xmax: 30, ymax: 5 }, { width: 16, height: 16 })).toBeNull();
    expect(boxToPercent({ xmin: 1, ymin: 1, xmax: 2, ymax: 2 }, { width: 0, height: 0 })).toBeNull();
  });

  it("takes corners given in either order", () => {
    expect(boxToPercent({ xmin: 8, ymin: 8, xmax: 0, ymax: 0 }, { width: 16, height: 16 })).toEqual({ x: 0, y: 0, width: 50, height: 50 });
  });
});

describe("labelColours", () => {
  it("gives each label one colour, in order of first appearance", () => {
    const c = labelColours(["cat", "dog", "cat", "bird"]);
    expect([...c.entries()]).toEqual([
      ["cat", PALETTE[0]],
      ["dog", PALETTE[1]],
      ["bird", PALETTE[2]],
    ]);
  });
});

describe("segments and their legend", () => {
  it("reads base64 PNG masks (with or without a data: prefix) and numbers repeated labels", () => {
    const list = segments([
      { label: "person", score: 0.9, mask: PNG_B64 },
      { label: "sky", mask: `data:image/png;base64,${PNG_B64}` },
      { label: "person", score: 0.8, mask: PNG_B64 },
    ]);
    expect(list?.map((s) => [s.label, s.score, s.mask === PNG_B64])).toEqual([
      ["person", 0.9, true],
      ["sky", null, true],
      ["person", 0.8, true],
    ]);
    const legend = segmentLegend(list ?? []);
    expect(legend.map((l) => l.name)).toEqual(["person 1", "sky", "person 2"]);
    expect(legend[0]?.colour).toBe(legend[2]?.colour);
    expect(legend[1]?.colour).not.toBe(legend[0]?.colour);
  });

  it("is null when a mask is not a PNG", () => {
    expect(segments([{ label: "sky", score: 0.5, mask: "/9j/4AAQSkZJRg" }])).toBeNull();
    expect(segments([])).toBeNull();
  });
});

describe("tintMask", () => {
  it("colours bright mask pixels and leaves dark ones clear", () => {
    const pixels = new Uint8ClampedArray([255, 255, 255, 255, 0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 0]);
    const out = tintMask(pixels, hexToRgb("#2563eb"), 0.5);
    expect([...out.slice(0, 4)]).toEqual([0x25, 0x63, 0xeb, 128]);
    expect(out[7]).toBe(0);
    expect(out[11]).toBe(64);
    expect(out[15]).toBe(0);
  });
});

describe("scoredAnswers", () => {
  it("reads VQA's list and document QA's answers", () => {
    expect(scoredAnswers([{ answer: "elephant", score: 0.97 }, { answer: "animal" }])).toEqual([
      { answer: "elephant", score: 0.97 },
      { answer: "animal", score: null },
    ]);
    expect(scoredAnswers({ answer: "INV-0042", score: 0.6, start: 3, end: 3 })).toEqual([{ answer: "INV-0042", score: 0.6 }]);
    expect(scoredAnswers([{ text: "x" }])).toBeNull();
  });
});
