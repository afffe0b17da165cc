import { type ServerKeyState, signInHref } from "#app/auth/viewer.ts";

/** Under a demo's Run button: whose key a run spends, and how to change that. */
export function KeyNote({ hasToken, keyState }: { hasToken: boolean | null; keyState: ServerKeyState }) {
  if (hasToken) {
    return (
      <>
        Using your token from{" "}
        <a href="/settings" className="underline">
          settings
        </a>
      </>
    );
  }
  if (keyState === "usable") {
    return (
      <>
        Using this site’s key ·{" "}
        <a href="/settings" className="underline">
          add yours
        </a>
      </>
    );
  }
  if (keyState === "sign-in") {
    return (
      <>
        <a href={signInHref()} className="underline">
          Sign in
        </a>{" "}
        to use this site’s key, or{" "}
        <a href="/settings" className="underline">
          add your own token
        </a>
      </>
    );
  }
  return (
    <>
      No token yet ·{" "}
      <a href="/settings" className="underline">
        add yours
      </a>
    </>
  );
}
