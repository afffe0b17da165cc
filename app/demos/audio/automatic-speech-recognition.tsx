/** Speech recognition: audio in (upload or microphone), the transcript out, with timed chunks when the model gives them. */
import { useState } from "react";
import { formatTimestamp, transcript } from "#app/demos/audio/output-shapes.ts";
import { AudioInput } from "#app/demos/shared/audio-input.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { exampleTranscript } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The transcript, with its timed chunks when given (the widget's and /compare's); anything else as JSON. */
export function TranscriptOutput({ output }: { output: unknown }) {
  const t = transcript(output);
  if (!t) return <RawOutput value={output} />;
  return (
    <div className="space-y-2">
      <p className="whitespace-pre-wrap break-words" data-transcript="">
        {t.text.trim() === "" ? <span className="text-gray-600 dark:text-gray-400">(no speech recognised)</span> : t.text.trim()}
      </p>
      {t.chunks.length > 0 ? (
        <table className="text-left text-xs" data-transcript-chunks="">
          <caption className="sr-only">The transcript in timed chunks</caption>
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1 font-semibold">
                From
              </th>
              <th scope="col" className="px-2 py-1 font-semibold">
                To
              </th>
              <th scope="col" className="px-2 py-1 font-semibold">
                Text
              </th>
            </tr>
          </thead>
          <tbody>
            {t.chunks.map((c, i) => (
              <tr key={i} className="border-t border-gray-100 dark:border-gray-800">
                <td className="px-2 py-1 tabular-nums text-gray-700 dark:text-gray-300">{formatTimestamp(c.start)}</td>
                <td className="px-2 py-1 tabular-nums text-gray-700 dark:text-gray-300">{formatTimestamp(c.end)}</td>
                <td className="px-2 py-1">{c.text.trim()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function Widget(props: WidgetProps) {
  const [audio, setAudio] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (audio ? { ok: true, inputs: null, file: audio } : { ok: false, message: "Upload or record some audio first." })}
      renderExample={(ex) => {
        const output = exampleTranscript(ex);
        return output ? <TranscriptOutput output={output} /> : null;
      }}
      render={(r) => <TranscriptOutput output={r.kind === "json" ? r.output : null} />}
    >
      <AudioInput value={audio} onChange={setAudio} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <TranscriptOutput output={output} />;
}
