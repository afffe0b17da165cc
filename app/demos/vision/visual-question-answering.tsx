import { useState } from "react";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { ScoredAnswersOutput } from "#app/demos/vision/scored-answers.tsx";
import { exampleScoredAnswers, exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  const [question, setQuestion] = useState(props.info.inputs.text);
  return (
    <WidgetFrame
      {...props}
      build={() => {
        if (!image) return { ok: false, message: "Choose an image to ask about." };
        if (!question.trim()) return { ok: false, message: "Type a question about the image." };
        // The image goes as the file; the question stays in the JSON (ADR 0021).
        return { ok: true, inputs: { question }, file: image };
      }}
      renderExample={(ex) => {
        const output = exampleScoredAnswers(ex);
        return output ? <ScoredAnswersOutput output={output} /> : null;
      }}
      render={(r) => <ScoredAnswersOutput output={r.kind === "json" ? r.output : null} />}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
      <TextInput label="Question" name="question" value={question} onChange={setQuestion} rows={1} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <ScoredAnswersOutput output={output} />;
}
