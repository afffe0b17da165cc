import { useEffect, useRef, useState } from "react";

/**
 * Shown instead of a demo file that could not be loaded (offline, asset host down, file moved):
 * a labelled box naming the file, never a broken-image icon.
 */
export function TaskMediaPlaceholder({ kind, filename, className = "" }: { kind: "image" | "audio"; filename: string; className?: string }) {
  return (
    <div
      data-media-fallback={kind}
      className={`flex flex-col items-center justify-center gap-1 rounded-lg border border-dashed border-gray-300 bg-gray-50 p-4 text-center text-sm text-gray-700 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-300 ${className}`}
    >
      <span className="font-medium">{kind === "image" ? "Image" : "Audio"} not available</span>
      <code className="break-all text-xs">{filename}</code>
    </div>
  );
}

/**
 * A demo image from the asset host. Two layers of fallback:
 *  - with JavaScript, a failed load (also one that failed before hydration, seen as a complete
 *    image with no natural width) swaps the <img> for TaskMediaPlaceholder;
 *  - without JavaScript, broken images get ::before/::after boxes (browsers draw pseudo-elements
 *    only on images that failed to load) that cover the broken icon with the same label.
 */
export function TaskImage({ src, filename, alt }: { src: string; filename: string; alt: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return <TaskMediaPlaceholder kind="image" filename={filename} className="h-56" />;
  return (
    <img
      ref={ref}
      src={src}
      alt={alt}
      data-filename={filename}
      loading="lazy"
      decoding="async"
      width={448}
      height={224}
      onError={() => setFailed(true)}
      className={
        "relative block h-56 w-full rounded-lg bg-gray-50 object-contain text-sm dark:bg-gray-900 " +
        "before:absolute before:inset-0 before:flex before:items-center before:justify-center before:rounded-lg before:border before:border-dashed before:border-gray-300 before:bg-gray-50 before:pb-6 before:font-medium before:text-gray-700 before:content-['Image_not_available'] " +
        "after:absolute after:inset-x-0 after:top-1/2 after:mt-1 after:px-4 after:text-center after:font-mono after:text-xs after:break-all after:text-gray-700 after:content-[attr(data-filename)] " +
        "dark:before:border-gray-700 dark:before:bg-gray-900 dark:before:text-gray-300 dark:after:text-gray-300"
      }
    />
  );
}

/** A demo audio clip; nothing is fetched before the visitor presses play (preload="none"). */
export function TaskAudio({ src, filename, label }: { src: string; filename: string; label: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <TaskMediaPlaceholder kind="audio" filename={filename} className="h-20" />;
  return (
    <audio controls preload="none" aria-label={label} onError={() => setFailed(true)} className="w-full">
      <source src={src} onError={() => setFailed(true)} />
      <a href={src}>Download {filename}</a>
    </audio>
  );
}
