/**
 * Each task's call into @huggingface/inference 3.13.1, keyed like the task records, so the compiler
 * asks for one per record: the inputs (and, where the library requires them, the parameters) its
 * task function takes, checked with zod so the call is typed as the library declares it, and what
 * the answer is (JSON, or media of one kind). Server-only: it imports the library.
 */
import {
  audioClassification,
  audioToAudio,
  automaticSpeechRecognition,
  type BaseArgs,
  chatCompletion,
  chatCompletionStream,
  documentQuestionAnswering,
  featureExtraction,
  fillMask,
  imageClassification,
  imageSegmentation,
  imageToImage,
  imageToText,
  objectDetection,
  type Options,
  questionAnswering,
  request as customRequest,
  sentenceSimilarity,
  summarization,
  tableQuestionAnswering,
  tabularClassification,
  tabularRegression,
  textClassification,
  textGeneration,
  textGenerationStream,
  textToImage,
  textToSpeech,
  textToVideo,
  tokenClassification,
  translation,
  visualQuestionAnswering,
  zeroShotClassification,
  zeroShotImageClassification,
} from "@huggingface/inference";
import type { TableQuestionAnsweringInputData } from "@huggingface/tasks";
import { z } from "zod";
import { GatewayError } from "#app/inference/errors.server.ts";
import type { MediaKind } from "#app/inference/media-types.ts";
import type { TaskName } from "#app/tasks/task-records.ts";

export type LibraryOptions = Options & { chatCompletion?: boolean };

type Parameters = Record<string, unknown>;

/** An object type as one literal: the task inputs' index signatures accept it, where they refuse an intersection. */
type Flat<T> = { [K in keyof T]: T[K] };

/** What every call carries: the route and credential (BaseArgs), and the checked `parameters`. */
export type CallArgs = Flat<BaseArgs & { parameters?: Parameters }>;

/** The body's task inputs, unchecked: `inputs` for most tasks, `messages` for chat. */
export interface RawInputs {
  task: string;
  inputs: unknown;
  messages: unknown[] | undefined;
}

export interface TaskCallSpec {
  /** JSON, or media of one kind, checked against its bytes. */
  answer: "json" | MediaKind;
  run(args: CallArgs, raw: RawInputs, options: LibraryOptions): Promise<unknown>;
}

/** Chat calls say so, so the library can report "Server … does not seem to support chat completion". */
const chatOptions = (options: LibraryOptions): LibraryOptions => ({ ...options, chatCompletion: true });

const invalid = (message: string, field: string) => new GatewayError({ status: 400, code: "invalid_request", message, field });

/** The value as the schema types it, or a 400 naming the field and what the task takes. */
function checked<T>(schema: z.ZodType<T>, value: unknown, field: string, task: string, takes: string): T {
  if (value === undefined) throw invalid(`The ${task} task needs \`${field}\`.`, field);
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(`\`${field}\` is not what the ${task} task takes: ${takes}.`, field);
  return result.data;
}

/** A task function taking `inputs` of the schema's type, answered as `answer`. */
function call<I>(answer: TaskCallSpec["answer"], inputs: z.ZodType<I>, takes: string, run: (args: Flat<CallArgs & { inputs: I }>, options: LibraryOptions) => Promise<unknown>): TaskCallSpec {
  return { answer, run: (args, raw, options) => run({ ...args, inputs: checked(inputs, raw.inputs, "inputs", raw.task, takes) }, options) };
}

/** As call(), for the task functions whose parameters the library requires (candidate_labels). */
function labelled<I>(inputs: z.ZodType<I>, takes: string, run: (args: Flat<CallArgs & { inputs: I; parameters: z.infer<typeof LABELS> }>, options: LibraryOptions) => Promise<unknown>): TaskCallSpec {
  return {
    answer: "json",
    run: (args, raw, options) =>
      run({ ...args, inputs: checked(inputs, raw.inputs, "inputs", raw.task, takes), parameters: checked(LABELS, args.parameters, "parameters", raw.task, "{candidate_labels: a list of labels}") }, options),
  };
}

/** Chat takes its parameters beside `messages`, not under `parameters`. */
function chatArgs(args: CallArgs, raw: RawInputs) {
  const { parameters, ...base } = args;
  return { ...base, ...parameters, messages: checked(MESSAGES, raw.messages, "messages", raw.task, "a list of {role, content} messages") };
}

/** The chat stream (the gateway's `stream: true` for conversational). */
export const streamChat = (args: CallArgs, raw: RawInputs, options: LibraryOptions) => chatCompletionStream(chatArgs(args, raw), chatOptions(options));

/** The text-generation stream. */
export const streamText = (args: CallArgs, raw: RawInputs, options: LibraryOptions) =>
  textGenerationStream(withCompletionNames({ ...args, inputs: checked(text, raw.inputs, "inputs", raw.task, TEXT) }), options);

/**
 * The providers to which 3.13.1 sends text generation's `parameters` nested, in TGI's names, where
 * their OpenAI-style APIs read `max_tokens`, `temperature`… at the top level of the body: the
 * gateway's length cap (max_new_tokens) would not reach them, and nothing would bound the answer's
 * cost. Hyperbolic and OVHcloud the library flattens itself; hf-inference speaks TGI.
 */
const NESTED_TEXT_PARAMETERS: ReadonlySet<string> = new Set(["together", "nebius", "featherless-ai", "groq", "novita"]);

/** TGI's parameter names and the OpenAI names those providers read. */
const COMPLETION_NAMES = [
  ["max_new_tokens", "max_tokens"],
  ["temperature", "temperature"],
  ["top_p", "top_p"],
  ["seed", "seed"],
  ["stop", "stop"],
] as const;

/**
 * Text generation's arguments with the parameters those providers read also given at the top
 * level, where the library's helpers for them spread a call's arguments into the body.
 */
function withCompletionNames<A extends CallArgs & { inputs: string }>(args: A): A {
  const parameters = args.parameters;
  if (!parameters || args.provider === undefined || !NESTED_TEXT_PARAMETERS.has(args.provider)) return args;
  const top: Parameters = {};
  for (const [tgi, openai] of COMPLETION_NAMES) if (parameters[tgi] !== undefined) top[openai] = parameters[tgi];
  return { ...args, ...top };
}

const text = z.string();
const blob = z.instanceof(Blob);
const columns = z.record(z.string(), z.array(z.string()));
const LABELS = z.looseObject({ candidate_labels: z.array(z.string()) });
/** The library's message type keeps any field a provider's dialect adds (tool calls, names). */
const MESSAGES = z.array(z.looseObject({ role: z.string() }));

/**
 * 3.13.1 types table question answering's inputs as the tasks spec's {question, table}, but sends
 * them as given, and hf-inference (TAPAS's pipeline) and the site's widgets speak {query, table}.
 * The one cast left: what the library declares is not what its providers take.
 */
function wireTableInputs(inputs: { query: string; table: Record<string, string[]> }): TableQuestionAnsweringInputData {
  return inputs as unknown as TableQuestionAnsweringInputData;
}

const TEXT = "a string";
const FILE = "a file (the task-inputs rules have already typed it)";

export const TASK_CALLS = {
  conversational: {
    answer: "json",
    run: (args, raw, options) => chatCompletion(chatArgs(args, raw), chatOptions(options)),
  },
  "text-classification": call("json", text, TEXT, (a, o) => textClassification(a, o)),
  "zero-shot-classification": labelled(text, TEXT, (a, o) => zeroShotClassification(a, o)),
  "token-classification": call("json", text, TEXT, (a, o) => tokenClassification(a, o)),
  "fill-mask": call("json", text, TEXT, (a, o) => fillMask(a, o)),
  "question-answering": call("json", z.object({ question: text, context: text }), "{question, context}", (a, o) => questionAnswering(a, o)),
  summarization: call("json", text, TEXT, (a, o) => summarization(a, o)),
  translation: call("json", text, TEXT, (a, o) => translation(a, o)),
  "text-generation": call("json", text, TEXT, (a, o) => textGeneration(withCompletionNames(a), o)),
  "feature-extraction": call("json", z.union([text, z.array(text)]), "a string or a list of strings", (a, o) => featureExtraction(a, o)),
  "sentence-similarity": call("json", z.object({ source_sentence: text, sentences: z.array(text) }), "{source_sentence, sentences}", (a, o) => sentenceSimilarity(a, o)),
  "table-question-answering": call("json", z.object({ query: text, table: columns }), "{query, table}, the table as lists of strings by column", (a, o) => tableQuestionAnswering({ ...a, inputs: wireTableInputs(a.inputs) }, o)),
  "automatic-speech-recognition": call("json", blob, FILE, (a, o) => automaticSpeechRecognition(a, o)),
  "audio-classification": call("json", blob, FILE, (a, o) => audioClassification(a, o)),
  "audio-to-audio": call("json", blob, FILE, (a, o) => audioToAudio(a, o)),
  "text-to-speech": call("audio", text, TEXT, (a, o) => textToSpeech(a, o)),
  "tabular-classification": call("json", z.object({ data: columns }), "{data}, lists of strings by column", (a, o) => tabularClassification(a, o)),
  "tabular-regression": call("json", z.object({ data: columns }), "{data}, lists of strings by column", (a, o) => tabularRegression(a, o)),
  "image-classification": call("json", blob, FILE, (a, o) => imageClassification(a, o)),
  "zero-shot-image-classification": labelled(blob, FILE, (a, o) => zeroShotImageClassification(a, o)),
  "object-detection": call("json", blob, FILE, (a, o) => objectDetection(a, o)),
  "image-segmentation": call("json", blob, FILE, (a, o) => imageSegmentation(a, o)),
  "image-to-text": call("json", blob, FILE, (a, o) => imageToText(a, o)),
  "visual-question-answering": call("json", z.object({ question: text, image: blob }), "{question, image}", (a, o) => visualQuestionAnswering(a, o)),
  "document-question-answering": call("json", z.object({ question: text, image: blob }), "{question, image}", (a, o) => documentQuestionAnswering(a, o)),
  "text-to-image": call("image", text, TEXT, (a, o) => textToImage(a, { ...o, outputType: "blob" })),
  "image-to-image": call("image", blob, FILE, (a, o) => imageToImage(a, o)),
  "text-to-video": call("video", text, TEXT, (a, o) => textToVideo(a, o)),
  // 3.13.1 routes text-to-audio (hf-inference's helper) but has no task function for it: its
  // generic request() with the task named is the library's own way in.
  "text-to-audio": call("audio", z.unknown(), "any JSON", (a, o) => customRequest(a, { ...o, task: "text-to-audio" })),
} satisfies Record<TaskName, TaskCallSpec>;
