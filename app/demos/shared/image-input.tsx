/**
 * An image (or, for document QA, a PDF) for a widget to send: chosen, dropped, pasted, or loaded
 * from a URL. A URL is fetched by this browser and its bytes sent like an upload; the server never
 * fetches it (ADR 0021). Every way in is checked by its bytes against the gateway's limits.
 */
import { type DragEvent, useEffect, useId, useState } from "react";
import { checkBlob, fileNameFromUrl } from "#app/demos/shared/media-file.ts";
import { useObjectUrl } from "#app/demos/shared/object-url.ts";
import { fieldCls } from "#app/demos/shared/parameters-form.tsx";
import { formatBytes } from "#app/demos/shared/run-inference.ts";
import type { MediaKind } from "#app/inference/media-types.ts";

export interface ImageInputProps {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  /** What the task takes; document QA adds "document" (PDF). */
  accept?: readonly MediaKind[];
  disabled?: boolean;
  /**
   * The task guide's demo image on its asset host, put in the URL field: the visitor's browser
   * loads it on "Load URL", so the demo input is one click away and nothing is fetched unasked.
   */
  suggestedUrl?: string;
}

/** A cross-origin image read through an <img> and a canvas, as PNG; null when it fails or its site forbids reading it. */
function imageViaCanvas(src: string): Promise<Blob | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = "anonymous";
    img.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d");
      if (!ctx) return resolve(null);
      ctx.drawImage(img, 0, 0);
      try {
        canvas.toBlob((blob) => resolve(blob), "image/png");
      } catch {
        resolve(null); // a tainted canvas: the site sent no CORS header
      }
    };
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

const ACCEPT_ATTR: Readonly<Record<MediaKind, string>> = { image: "image/*", audio: "audio/*", video: "video/*", document: "application/pdf" };

export function ImageInput({ label, value, onChange, accept = ["image"], disabled = false, suggestedUrl }: ImageInputProps) {
  const id = useId();
  const [url, setUrl] = useState(suggestedUrl ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const preview = useObjectUrl(value && value.type.startsWith("image/") ? value : null);
  const what = accept.includes("document") ? "an image or a PDF" : "an image";

  async function take(blob: Blob, name: string) {
    const check = await checkBlob(blob, accept);
    if (!check.ok) return setProblem(check.message);
    setProblem(null);
    // Typed by its bytes, so the preview and the name's extension follow what it is.
    onChange(new File([blob], name, { type: check.mime }));
  }

  // Paste anywhere on the page while the widget is there, unless the paste is text into a field.
  useEffect(() => {
    if (disabled) return;
    const onPaste = (e: ClipboardEvent) => {
      const file = [...(e.clipboardData?.files ?? [])][0];
      if (!file) return;
      e.preventDefault();
      void take(file, file.name || "pasted-image");
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  });

  async function loadUrl() {
    const target = url.trim();
    if (!/^https?:\/\//i.test(target)) return setProblem("Give an http(s) URL.");
    setLoading(true);
    try {
      const res = await fetch(target, { mode: "cors", credentials: "omit" });
      if (!res.ok) setProblem(`The URL answered ${res.status}.`);
      else await take(await res.blob(), fileNameFromUrl(target, "image"));
    } catch {
      // The page's policy lets scripts fetch only this site, but images load from anywhere: a
      // CORS-enabled image is read through a canvas instead (re-encoded as PNG, said in its name).
      const png = accept.includes("image") ? await imageViaCanvas(target) : null;
      if (png) await take(png, `${fileNameFromUrl(target, "image").replace(/\.[a-z0-9]+$/i, "")}.png`);
      else setProblem("This browser could not read that URL: it may be unreachable, or its site may not let other sites read it (CORS). Download it and upload the file instead.");
    } finally {
      setLoading(false);
    }
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && !disabled) void take(file, file.name);
  }

  return (
    <fieldset className="space-y-2" data-image-input="" disabled={disabled}>
      <legend className="mb-1 text-xs font-medium text-gray-700 dark:text-gray-300">{label}</legend>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-drop-zone=""
        className={`rounded-md border-2 border-dashed p-3 ${dragging ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40" : "border-gray-300 dark:border-gray-700"}`}
      >
        {value ? (
          <div className="flex flex-wrap items-start gap-3">
            {preview ? (
              <img src={preview} alt={`Preview of ${value.name}`} data-image-preview="" className="max-h-48 max-w-full rounded border border-gray-200 object-contain dark:border-gray-700" />
            ) : null}
            <div className="space-y-1 text-xs text-gray-700 dark:text-gray-300">
              <p className="break-all font-medium" data-image-name="">
                {value.name}
              </p>
              <p>
                {value.type} · {formatBytes(value.size)}
              </p>
              <button type="button" onClick={() => onChange(null)} className="rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-50 dark:border-gray-600 dark:hover:bg-gray-800">
                Remove
              </button>
            </div>
          </div>
        ) : (
          <p className="text-sm text-gray-700 dark:text-gray-300" data-image-empty="">
            No {what.replace(/^an? /, "")} yet: choose a file, drop or paste one here, or load one from a URL.
          </p>
        )}
        <label htmlFor={`${id}-file`} className="mt-2 block text-xs font-medium text-gray-700 dark:text-gray-300">
          {value ? "Choose another file" : "Choose a file"}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          name="image"
          accept={accept.map((k) => ACCEPT_ATTR[k]).join(",")}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void take(file, file.name);
            e.target.value = "";
          }}
          className="mt-1 block w-full text-xs text-gray-700 file:mr-2 file:rounded file:border-0 file:bg-indigo-600 file:px-2 file:py-1 file:text-white hover:file:bg-indigo-500 dark:text-gray-300"
        />
      </div>
      <div className="flex gap-2">
        <label htmlFor={`${id}-url`} className="sr-only">
          Image URL
        </label>
        <input
          id={`${id}-url`}
          type="url"
          name="image_url"
          placeholder="https://… (fetched by your browser)"
          title={suggestedUrl !== undefined && url === suggestedUrl ? "The task guide's example image" : undefined}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          className={fieldCls}
        />
        <button
          type="button"
          onClick={() => void loadUrl()}
          disabled={loading || url.trim() === ""}
          className="shrink-0 rounded-md border border-gray-300 px-3 py-1 text-xs font-medium hover:bg-gray-50 disabled:opacity-50 dark:border-gray-600 dark:hover:bg-gray-800"
        >
          {loading ? "Loading…" : "Load URL"}
        </button>
      </div>
      {problem ? (
        <p role="alert" data-image-problem="" className="text-xs text-red-800 dark:text-red-300">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
