import { signInHref } from "#app/auth/viewer.ts";
/** Codes whose way out is the settings page, where a visitor adds or changes their token. */
const TOKEN_CODES: ReadonlySet<string> = new Set(["missing_token", "token_rejected", "server_key_rejected", "hf_token_not_accepted"]);

/** A failed demo call in place: the plain-words hint first, the gateway's message under it, and the way out when it is the token. */
export function DemoErrorAlert({ error, kind }: { error: { code: string; message: string; hint: string | null }; kind: "chat" | "widget" }) {
  const marker = kind === "chat" ? { "data-chat-error": error.code } : { "data-widget-error": error.code };
  return (
    <div role="alert" {...marker} className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
      <p className="font-medium">{error.hint ?? error.message}</p>
      {error.hint ? <p className="mt-1 break-words font-mono text-xs opacity-80">{error.message}</p> : null}
      <TokenWayOut code={error.code} />
    </div>
  );
}

/** The link to the settings page when a failed call's way out is the visitor's token; nothing otherwise. */
export function TokenWayOut({ code }: { code: string }) {
  if (code === "sign_in_required") {
    return (
      <p className="mt-1 text-xs font-medium">
        <a href={signInHref()} className="underline">
          Sign in
        </a>{" "}
        or{" "}
        <a href="/settings" className="underline">
          add your own token
        </a>
      </p>
    );
  }
  if (!TOKEN_CODES.has(code)) return null;
  return (
    <a href="/settings" className="mt-1 inline-block text-xs font-medium underline">
      Open settings
    </a>
  );
}
