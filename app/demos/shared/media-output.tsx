/** Generated media (an image, a video, a clip) shown or played, with a download of the same bytes. */
import { downloadName } from "#app/demos/shared/media-file.ts";
import { useObjectUrl } from "#app/demos/shared/object-url.ts";
import { formatBytes } from "#app/demos/shared/run-inference.ts";

export function MediaOutput({ blob, contentType, kind, description }: { blob: Blob; contentType: string; kind: "image" | "video" | "audio"; description: string }) {
  const url = useObjectUrl(blob);
  if (!url) return null;
  const name = downloadName(description, contentType);
  return (
    <figure className="space-y-2" data-media-output={kind}>
      {kind === "image" ? <img src={url} alt={description} className="h-auto w-full max-w-md rounded border border-gray-200 object-contain dark:border-gray-700" /> : null}
      {kind === "video" ? <video src={url} controls loop playsInline aria-label={description} className="w-full max-w-md rounded bg-black" /> : null}
      {kind === "audio" ? <audio src={url} controls aria-label={description} className="w-full" /> : null}
      <figcaption className="flex flex-wrap items-center gap-2 text-xs text-gray-700 dark:text-gray-300">
        <span>
          {contentType.split(";")[0]} · {formatBytes(blob.size)}
        </span>
        <a href={url} download={name} data-media-download={name} className="rounded border border-gray-300 px-2 py-0.5 font-medium hover:bg-gray-50 dark:border-gray-600 dark:hover:bg-gray-800">
          Download {name}
        </a>
      </figcaption>
    </figure>
  );
}
