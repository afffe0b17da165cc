import { useState } from "react";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { similarityScores } from "#app/demos/text/output-shapes.ts";
import { exampleSimilarity } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

const lines = (text: string) => text.split("\n").map((s) => s.trim()).filter((s) => s !== "");

/** One score per compared sentence (the widget's and /compare's). */
export function SentenceSimilarityOutput({ output, sentences }: { output: unknown; sentences: readonly string[] }) {
  const items = similarityScores(output, sentences);
  return items ? <LabelScoreChart items={items} caption="Similarity to the source sentence" labelHeader="Sentence" /> : <RawOutput value={output} />;
}

export function Widget(props: WidgetProps) {
  const [source, setSource] = useState(props.info.inputs.text);
  const [others, setOthers] = useState(props.info.inputs.sentences.join("\n"));
  const [sent, setSent] = useState<string[]>([]);
  return (
    <WidgetFrame
      {...props}
      build={() => {
        const sentences = lines(others);
        if (!source.trim() || sentences.length === 0) return { ok: false, message: "Give a source sentence and at least one sentence to compare." };
        return { ok: true, inputs: { source_sentence: source, sentences } };
      }}
      onRun={() => setSent(lines(others))}
      renderExample={(ex) => {
        const s = exampleSimilarity(ex);
        return s ? <SentenceSimilarityOutput output={s.scores} sentences={s.sentences} /> : null;
      }}
      render={(r) => <SentenceSimilarityOutput output={r.kind === "json" ? r.output : null} sentences={sent} />}
    >
      <TextInput label="Source sentence" name="source_sentence" value={source} onChange={setSource} rows={1} />
      <TextInput label="Sentences to compare" name="sentences" value={others} onChange={setOthers} rows={4} hint="One sentence per line" />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <SentenceSimilarityOutput output={output} sentences={sent.sentences ?? []} />;
}
