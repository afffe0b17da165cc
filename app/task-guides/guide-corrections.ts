/**
 * Code in @huggingface/tasks 0.19.90's guides (about.md) that cannot work with the pinned
 * @huggingface/inference 3.13.1, rewritten before the guide is rendered (issue 32, item 11). The
 * text-classification and text-generation guides call `inference.conversational`, which the
 * library dropped with the conversational task, and the text-generation one shows the
 * text-classification example (a DistilBERT sentiment classifier) under "text classification".
 * Each is replaced by the call its own guide describes, on the model that guide's Python
 * example already uses. guide-code.test.ts checks every guide's JavaScript against the library.
 */

const HF_JS = "[huggingface.js](https://github.com/huggingface/huggingface.js)";

/** The block both guides ship, word for word (tab-indented, as in the package). */
const CONVERSATIONAL_CLASSIFIER = `\`\`\`javascript
import { InferenceClient } from "@huggingface/inference";

const inference = new InferenceClient(HF_TOKEN);
await inference.conversational({
\tmodel: "distilbert-base-uncased-finetuned-sst-2-english",
\tinputs: "I love this movie!",
});
\`\`\``;

interface GuideCorrection {
  /** Text as the package ships it. */
  from: string;
  to: string;
}

export const GUIDE_CORRECTIONS: Readonly<Record<string, readonly GuideCorrection[]>> = {
  "text-classification": [
    {
      from: CONVERSATIONAL_CLASSIFIER,
      to: CONVERSATIONAL_CLASSIFIER.replace("inference.conversational(", "inference.textClassification("),
    },
  ],
  "text-generation": [
    {
      from: `You can use ${HF_JS} to infer text classification models on Hugging Face Hub.\n\n${CONVERSATIONAL_CLASSIFIER}`,
      to: `You can use ${HF_JS} to infer text generation models on Hugging Face Hub.

\`\`\`javascript
import { InferenceClient } from "@huggingface/inference";

const inference = new InferenceClient(HF_TOKEN);
await inference.textGeneration({
\tmodel: "HuggingFaceH4/zephyr-7b-beta",
\tinputs: "Hello, I'm a language model",
});
\`\`\``,
    },
  ],
};

/** The guide of task `id` with its known-bad code replaced; text a correction does not find stays as it is. */
export function correctGuide(id: string, md: string): string {
  return (GUIDE_CORRECTIONS[id] ?? []).reduce((text, { from, to }) => text.split(from).join(to), md);
}
