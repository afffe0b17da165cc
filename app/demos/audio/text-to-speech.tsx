/** Text to speech: text in, the spoken audio out in a player, with a download. */
import { useState } from "react";
import { MediaOutput } from "#app/demos/shared/media-output.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The spoken audio in a player (the widget's and /compare's); another type of answer named by its type and size. */
export function TextToSpeechOutput({ blob, contentType, text }: { blob: Blob; contentType: string; text: string }) {
  return contentType.startsWith("audio/") ? <MediaOutput blob={blob} contentType={contentType} kind="audio" description={text} /> : <RawOutput value={`(${contentType}, ${blob.size} bytes)`} />;
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  const [sent, setSent] = useState(text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type something to say." })}
      onRun={() => setSent(text)}
      render={(r) =>
        r.kind === "media" ? <TextToSpeechOutput blob={r.blob} contentType={r.contentType} text={sent} /> : <RawOutput value={r.kind === "json" ? r.output : r.text} />
      }
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output); a provider answering with JSON has it shown as JSON. */
export function Output({ output, media, sent }: OutputProps) {
  return media ? <TextToSpeechOutput {...media} text={sent.text} /> : <RawOutput value={output} />;
}
