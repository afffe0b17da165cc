import { useState } from "react";
import { HighlightedText } from "#app/demos/shared/highlighted-text.tsx";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { qaAnswer } from "#app/demos/text/output-shapes.ts";
import { exampleQuestionAnswer } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The answer, highlighted in the context sent (the widget's and /compare's). */
export function QuestionAnsweringOutput({ output, context }: { output: unknown; context: string }) {
  const a = qaAnswer(output, context);
  if (!a) return <RawOutput value={output} />;
  return (
    <div className="space-y-2">
      <p>
        <span className="font-semibold">Answer:</span> <span data-qa-answer="">{a.answer}</span>
        {a.score !== null ? <span className="ml-2 text-xs text-gray-700 dark:text-gray-300">score {percent(a.score)}</span> : null}
      </p>
      {a.span ? (
        <div>
          <p className="text-xs font-medium text-gray-600 dark:text-gray-400">In its context</p>
          <HighlightedText text={context} spans={[a.span]} legend={false} />
        </div>
      ) : null}
    </div>
  );
}

export function Widget(props: WidgetProps) {
  const [question, setQuestion] = useState(props.info.inputs.text);
  const [context, setContext] = useState(props.info.inputs.context);
  const [sent, setSent] = useState(context);
  return (
    <WidgetFrame
      {...props}
      build={() => (question.trim() && context.trim() ? { ok: true, inputs: { question, context } } : { ok: false, message: "Give a question and a context." })}
      onRun={() => setSent(context)}
      renderExample={(ex) => {
        const a = exampleQuestionAnswer(ex);
        return a ? <QuestionAnsweringOutput output={a.output} context={a.context} /> : null;
      }}
      render={(r) => <QuestionAnsweringOutput output={r.kind === "json" ? r.output : null} context={sent} />}
    >
      <TextInput label="Question" name="question" value={question} onChange={setQuestion} rows={1} />
      <TextInput label="Context" name="context" value={context} onChange={setContext} rows={4} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <QuestionAnsweringOutput output={output} context={sent.context ?? ""} />;
}
