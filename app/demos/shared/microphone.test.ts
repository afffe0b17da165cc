import { describe, expect, it } from "vitest";
import { microphoneErrorMessage, recordingFileName, recordingType, recordingUnsupported } from "#app/demos/shared/microphone.ts";

describe("recording", () => {
  it("asks for the first container the browser supports, else lets it choose", () => {
    expect(recordingType((t) => t.startsWith("audio/webm"))).toBe("audio/webm;codecs=opus");
    expect(recordingType((t) => t === "audio/mp4")).toBe("audio/mp4");
    expect(recordingType(() => false)).toBe("");
  });

  it("names a recording by its container", () => {
    expect(recordingFileName("audio/webm;codecs=opus")).toBe("recording.webm");
    expect(recordingFileName("audio/ogg; codecs=opus")).toBe("recording.ogg");
    expect(recordingFileName("audio/mp4")).toBe("recording.m4a");
    expect(recordingFileName("")).toBe("recording.webm");
  });

  it("says why recording cannot start before asking", () => {
    expect(recordingUnsupported({ secure: false, hasMediaDevices: false, hasMediaRecorder: true })).toMatch(/secure page/);
    expect(recordingUnsupported({ secure: true, hasMediaDevices: true, hasMediaRecorder: false })).toMatch(/cannot record/);
    expect(recordingUnsupported({ secure: true, hasMediaDevices: true, hasMediaRecorder: true })).toBeNull();
  });

  it("turns a denied permission, a missing microphone and a busy one into plain sentences", () => {
    expect(microphoneErrorMessage(new DOMException("Permission denied", "NotAllowedError"))).toMatch(/^Microphone access was denied/);
    expect(microphoneErrorMessage(new DOMException("Requested device not found", "NotFoundError"))).toMatch(/^No microphone was found/);
    expect(microphoneErrorMessage(new DOMException("Could not start audio source", "NotReadableError"))).toMatch(/could not be started/);
    expect(microphoneErrorMessage(new Error("boom"))).toBe("Recording failed: boom. Upload a file instead.");
    expect(microphoneErrorMessage("x")).toBe("Recording failed. Upload a file instead.");
  });
});
