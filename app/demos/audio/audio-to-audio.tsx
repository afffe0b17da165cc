/** Audio-to-audio (source separation, enhancement): audio in, one player per returned track with its label. */
import { useState } from "react";
import { audioTracks } from "#app/demos/audio/output-shapes.ts";
import { AudioInput } from "#app/demos/shared/audio-input.tsx";
import { downloadName } from "#app/demos/shared/media-file.ts";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** One player per returned track, with its label (the widget's and /compare's); anything else as JSON. */
export function AudioTracksOutput({ output }: { output: unknown }) {
  const tracks = audioTracks(output);
  if (!tracks) return <RawOutput value={output} />;
  return (
    <ul className="space-y-3" data-audio-tracks="">
      {tracks.map((t, i) => (
        <li key={i} data-audio-track={t.label}>
          <div className="flex items-baseline justify-between gap-2">
            <p className="font-medium text-gray-900 dark:text-gray-100">{t.label}</p>
            <a href={t.src} download={downloadName(t.label, t.contentType)} className="text-xs underline">
              Download {t.label}
            </a>
          </div>
          <audio controls src={t.src} className="mt-1 w-full" aria-label={`Track: ${t.label}`} />
        </li>
      ))}
    </ul>
  );
}

export function Widget(props: WidgetProps) {
  const [audio, setAudio] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (audio ? { ok: true, inputs: null, file: audio } : { ok: false, message: "Upload or record some audio first." })}
      render={(r) => <AudioTracksOutput output={r.kind === "json" ? r.output : null} />}
    >
      <AudioInput value={audio} onChange={setAudio} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <AudioTracksOutput output={output} />;
}
