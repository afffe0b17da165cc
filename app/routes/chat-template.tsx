import type { Route } from "./+types/chat-template";
import { loadLab } from "#app/chat-template/lab.server.ts";
import { requestScope } from "#app/utils/request-context.ts";
import { ChatTemplateLab } from "#app/chat-template/lab.tsx";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";

export const meta: Route.MetaFunction = () => [
  { title: "Chat template lab · Modelyard" },
  {
    name: "description",
    content: "Render any Jinja chat template on an editable conversation, load one from a catalogue model, and compare two templates side by side.",
  },
];

export async function loader({ url, context }: Route.LoaderArgs) {
  return loadLab(url, context.get(requestScope).clientAddress ?? undefined);
}

export default function ChatTemplateLabPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">Chat template lab</h1>
      <p className="mt-2 max-w-3xl text-gray-700 dark:text-gray-300">
        A chat template turns a list of messages into the exact prompt a model sees. Paste one or load it from a catalogue model,
        edit the conversation, and compare two templates on the same messages: a model against its base model, or its{" "}
        <code className="font-mono text-[0.9em]">tokenizer_config.json</code> template against the one in its GGUF file. Rendering follows{" "}
        <code className="font-mono text-[0.9em]">transformers</code>’ <code className="font-mono text-[0.9em]">apply_chat_template</code>.
      </p>
      <div className="mt-6">
        {/* A new loader result (another model, a shared link) starts the page's client state afresh. */}
        <ChatTemplateLab key={loaderData.key} data={loaderData} />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
