import { describe, expect, it } from "vitest";
import { audioTracks, formatTimestamp, transcript } from "#app/demos/audio/output-shapes.ts";

describe("transcript", () => {
  it("reads the text, and chunks with their timestamps when given", () => {
    expect(transcript({ text: "hello world" })).toEqual({ text: "hello world", chunks: [] });
    expect(
      transcript({
        text: " hello world",
        chunks: [
          { text: " hello", timestamp: [0, 0.5] },
          { text: " world", timestamp: [0.5, null] },
          { nope: 1 },
        ],
      }),
    ).toEqual({ text: " hello world", chunks: [{ text: " hello", start: 0, end: 0.5 }, { text: " world", start: 0.5, end: null }] });
  });

  it("refuses what is not a transcript", () => {
    expect(transcript([{ label: "speech", score: 1 }])).toBeNull();
    expect(transcript("text")).toBeNull();
  });

  it("formats timestamps as minutes and seconds", () => {
    expect(formatTimestamp(0)).toBe("0:00.0");
    expect(formatTimestamp(65.25)).toBe("1:05.3");
    expect(formatTimestamp(null)).toBe("…");
  });
});

describe("audioTracks", () => {
  it("one data: URL per track, labelled", () => {
    expect(audioTracks([{ label: "speech", "content-type": "audio/flac", blob: "ZkxhQw==" }, { "content-type": "audio/wav", blob: "UklGRg==" }])).toEqual([
      { label: "speech", contentType: "audio/flac", src: "data:audio/flac;base64,ZkxhQw==" },
      { label: "Track 2", contentType: "audio/wav", src: "data:audio/wav;base64,UklGRg==" },
    ]);
  });

  it("never puts a non-audio type or non-base64 text into the URL", () => {
    expect(audioTracks([{ label: "x", "content-type": "text/html", blob: "UklGRg==" }])?.[0]?.src).toBe("data:audio/wav;base64,UklGRg==");
    expect(audioTracks([{ label: "x", "content-type": "audio/wav", blob: "<script>" }])).toBeNull();
    expect(audioTracks([])).toBeNull();
  });
});
