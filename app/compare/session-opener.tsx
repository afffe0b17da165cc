/**
 * "Open session": a session file, validated with the session schema before anything is shown. Kept
 * apart from the view, so a page can offer the button without loading every task's output.
 */
import { type ChangeEvent, useId, useState } from "react";
import { buttonCls } from "#app/compare/compare-styles.ts";
import { readSessionText } from "#app/compare/session-file.ts";
import { MAX_SESSION_BYTES, type Session } from "#app/compare/session-schema.ts";

export function SessionOpener({ onOpen }: { onOpen: (s: Session) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  async function pick(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setError(null);
    // Checked before reading, so a huge file is never loaded.
    const read = file.size > MAX_SESSION_BYTES ? readSessionText("", file.size) : readSessionText(await file.text(), file.size);
    if (read.ok) onOpen(read.session);
    else setError(read.error);
  }
  return (
    <>
      <label htmlFor={`${id}-open`} className={`${buttonCls} cursor-pointer`}>
        Open session
      </label>
      <input id={`${id}-open`} type="file" accept="application/json,.json" className="sr-only" onChange={(e) => void pick(e)} data-open-session="" />
      {error ? (
        <p role="alert" data-session-error="" className="basis-full break-words rounded-md border border-red-300 bg-red-50 px-2 py-1 text-xs text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
          {error}
        </p>
      ) : null}
    </>
  );
}
