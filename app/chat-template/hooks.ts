import { useEffect, useRef, useState } from "react";
import type { SharedState } from "#app/chat-template/preview-state.ts";
import { encodeSharedState, STATE_PARAM } from "#app/chat-template/url-state.ts";

/** True after hydration: controls that only make sense with JavaScript render from then on. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Keeps the address bar in step with the preview (replaceState, so no history spam and no
 * loader call): `keep` params stay, the state goes into the compressed `s`, the no-JS form's
 * fields are dropped. Returns the current shareable URL.
 */
export function useStateInUrl(state: SharedState, enabled: boolean, keep: Record<string, string>): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const keepKey = JSON.stringify(keep);
  const latest = useRef(0);
  useEffect(() => {
    if (!enabled) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      encodeSharedState(state)
        .then((encoded) => {
          if (ticket !== latest.current) return;
          const params = new URLSearchParams(JSON.parse(keepKey) as Record<string, string>);
          params.set(STATE_PARAM, encoded);
          const next = `${window.location.pathname}?${params}`;
          window.history.replaceState(window.history.state, "", next);
          setUrl(`${window.location.origin}${next}`);
        })
        .catch(() => {
          // CompressionStream missing (very old browser): the page still works, only the link is not updated.
        });
    }, 250);
    return () => clearTimeout(timer);
  }, [state, enabled, keepKey]);
  return url;
}
