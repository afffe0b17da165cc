import { useState } from "react";
import { MediaOutput } from "#app/demos/shared/media-output.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The generated video, or an animated image (the widget's and /compare's); another type of answer named by its type. */
export function TextToVideoOutput({ blob, contentType, prompt }: { blob: Blob; contentType: string; prompt: string }) {
  return contentType.startsWith("video/") || contentType.startsWith("image/gif") ? (
    <MediaOutput blob={blob} contentType={contentType} kind={contentType.startsWith("video/") ? "video" : "image"} description={`Generated video: ${prompt}`} />
  ) : (
    <RawOutput value={contentType} />
  );
}

export function Widget(props: WidgetProps) {
  const [prompt, setPrompt] = useState(props.info.inputs.text);
  const [sent, setSent] = useState(prompt);
  return (
    <WidgetFrame
      {...props}
      build={() => (prompt.trim() ? { ok: true, inputs: prompt } : { ok: false, message: "Describe the video to generate." })}
      onRun={() => setSent(prompt)}
      render={(r) =>
        r.kind === "media" ? <TextToVideoOutput blob={r.blob} contentType={r.contentType} prompt={sent} /> : <RawOutput value={r.kind === "json" ? r.output : r.text} />
      }
    >
      <TextInput label="Prompt" name="inputs" value={prompt} onChange={setPrompt} rows={2} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output); a provider answering with JSON has it shown as JSON. */
export function Output({ output, media, sent }: OutputProps) {
  return media ? <TextToVideoOutput {...media} prompt={sent.text} /> : <RawOutput value={output} />;
}
