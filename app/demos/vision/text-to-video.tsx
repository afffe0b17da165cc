import { useState } from "react";
import { MediaOutput } from "#app/demos/shared/media-output.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";

export function Widget(props: WidgetProps) {
  const [prompt, setPrompt] = useState(props.info.inputs.text);
  const [sent, setSent] = useState(prompt);
  return (
    <WidgetFrame
      {...props}
      build={() => (prompt.trim() ? { ok: true, inputs: prompt } : { ok: false, message: "Describe the video to generate." })}
      onRun={() => setSent(prompt)}
      render={(r) =>
        r.kind === "media" && (r.contentType.startsWith("video/") || r.contentType.startsWith("image/gif")) ? (
          <MediaOutput blob={r.blob} contentType={r.contentType} kind={r.contentType.startsWith("video/") ? "video" : "image"} description={`Generated video: ${sent}`} />
        ) : (
          <RawOutput value={r.kind === "json" ? r.output : r.kind === "text" ? r.text : r.contentType} />
        )
      }
    >
      <TextInput label="Prompt" name="inputs" value={prompt} onChange={setPrompt} rows={2} />
    </WidgetFrame>
  );
}
