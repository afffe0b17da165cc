// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
import { createHash } from "node:crypto";
import { seedBytes } from "../media.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function shortHash(text: string, length = 12): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** A number in [0, 1) derived from the text. */
export function unitFromText(text: string): number {
  return (seedBytes(text).readUInt32BE(0) % 1_000_000) / 1_000_000;
}

export function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
