/** Text to speech: text in, the spoken audio out in a player, with a download. */
import { useState } from "react";
import { MediaOutput } from "#app/demos/shared/media-output.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  const [sent, setSent] = useState(text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type something to say." })}
      onRun={() => setSent(text)}
      render={(r) =>
        r.kind === "media" && r.contentType.startsWith("audio/") ? (
          <MediaOutput blob={r.blob} contentType={r.contentType} kind="audio" description={sent} />
        ) : (
          <RawOutput value={r.kind === "json" ? r.output : r.kind === "text" ? r.text : `(${r.contentType}, ${r.blob.size} bytes)`} />
        )
      }
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
    </WidgetFrame>
  );
}
