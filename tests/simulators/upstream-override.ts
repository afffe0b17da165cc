// Test-side copy of the MODELYARD_UPSTREAM_OVERRIDE URL scheme used with the provider SIMULATOR:
// https://<host><path>?<query>  ->  <base>/<host><path>?<query>
// The product keeps its own implementation in app/inference/; this one exists so the simulator's
// tests do not depend on app code.

/** Rewrites an absolute http(s) URL to the override scheme; URLs already under `base`, data: and blob: URLs are left alone. */
export function toOverrideUrl(url: string, base: string): string {
  const trimmedBase = base.replace(/\/+$/, "");
  if (url.startsWith(`${trimmedBase}/`) || url === trimmedBase) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return url;
  return `${trimmedBase}/${parsed.host}${parsed.pathname}${parsed.search}`;
}

function inputUrl(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** A fetch that sends every request to the override base with the same method, headers and body. */
export function makeOverrideFetch(base: string, innerFetch: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = toOverrideUrl(inputUrl(input), base);
    if (input instanceof Request) {
      return innerFetch(new Request(target, input), init);
    }
    return innerFetch(target, init);
  };
}
