import type { MouseEvent } from "react";
import {
  emptyMessage,
  FIELD,
  MESSAGE_ROLES,
  PRESET_IDS,
  PRESETS,
  STATE_LIMITS,
  type Conversation,
  type SampleMessage,
} from "#app/chat-template/preview-state.ts";

export const fieldCls =
  "w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100";
const monoArea = `${fieldCls} font-mono text-[13px] leading-snug field-sizing-content min-h-[2.5rem] max-h-[20rem]`;
const smallButton =
  "rounded-md border border-gray-300 px-2 py-0.5 text-xs font-medium text-gray-700 hover:bg-gray-100 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-800";

const ROLE_STYLE: Record<string, string> = {
  system: "border-l-purple-400",
  user: "border-l-sky-400",
  assistant: "border-l-emerald-400",
  tool: "border-l-amber-400",
};

/**
 * The sample conversation: messages (system, user, assistant with tool calls, tool results), the
 * tools JSON and the add_generation_prompt switch. Every control has a form name, so the same
 * markup is a plain GET form without JavaScript; with it, `onChange` gets every edit and the
 * submit buttons (add, remove, presets) act in place.
 */
export function ConversationEditor({ conversation, onChange }: { conversation: Conversation; onChange: ((next: Conversation) => void) | null }) {
  const update = (next: Conversation) => onChange?.(next);
  const setMessage = (index: number, patch: Partial<SampleMessage>) =>
    update({ ...conversation, messages: conversation.messages.map((m, i) => (i === index ? { ...m, ...patch } : m)) });
  /** With JavaScript the button acts here; without, it submits its `op` to the loader. */
  const act = (event: MouseEvent<HTMLButtonElement>, run: () => void) => {
    if (!onChange) return;
    event.preventDefault();
    run();
  };
  const { messages } = conversation;
  return (
    <fieldset className="space-y-3" data-ct-conversation="">
      <legend className="sr-only">Sample conversation</legend>
      <div className="flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
        <span>Examples:</span>
        {PRESET_IDS.map((id) => (
          <button
            key={id}
            type="submit"
            name={FIELD.op}
            value={`preset:${id}`}
            className={smallButton}
            onClick={(e) =>
              act(e, () => {
                const preset = PRESETS[id].conversation();
                update({ ...conversation, messages: preset.messages, tools: preset.tools });
              })
            }
          >
            {PRESETS[id].label}
          </button>
        ))}
      </div>
      <input type="hidden" name={FIELD.messageCount} value={messages.length} />
      <ol className="space-y-2">
        {messages.map((m, i) => (
          <li
            key={i}
            className={`rounded-md border border-l-4 border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-950 ${ROLE_STYLE[m.role] ?? "border-l-gray-400"}`}
            data-ct-message={i}
          >
            <div className="mb-1 flex items-center justify-between gap-2">
              <label className="flex items-center gap-2 text-xs font-medium text-gray-700 dark:text-gray-300">
                <span className="sr-only">Message {i + 1} role</span>
                <select
                  name={FIELD.message(i, "role")}
                  value={m.role}
                  onChange={(e) => setMessage(i, { role: e.target.value })}
                  className="rounded border border-gray-300 bg-white px-1 py-0.5 text-xs dark:border-gray-700 dark:bg-gray-900"
                  aria-label={`Message ${i + 1} role`}
                >
                  {(MESSAGE_ROLES as readonly string[]).includes(m.role) ? null : <option value={m.role}>{m.role}</option>}
                  {MESSAGE_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="submit"
                name={FIELD.op}
                value={`remove:${i}`}
                className="text-xs text-gray-500 hover:text-red-700 dark:text-gray-400 dark:hover:text-red-400"
                aria-label={`Remove message ${i + 1}`}
                onClick={(e) => act(e, () => update({ ...conversation, messages: messages.filter((_, j) => j !== i) }))}
              >
                Remove
              </button>
            </div>
            <textarea
              name={FIELD.message(i, "content")}
              value={m.content}
              onChange={(e) => setMessage(i, { content: e.target.value })}
              aria-label={`Message ${i + 1} content`}
              maxLength={STATE_LIMITS.contentChars}
              rows={2}
              className={`${fieldCls} field-sizing-content min-h-[2.5rem] max-h-[16rem]`}
              data-ct-message-content={i}
            />
            {m.role === "assistant" ? (
              <details className="mt-1" open={m.toolCalls.trim() !== ""}>
                <summary className="cursor-pointer text-xs text-gray-600 dark:text-gray-400">Tool calls (JSON array)</summary>
                <textarea
                  name={FIELD.message(i, "tool_calls")}
                  value={m.toolCalls}
                  onChange={(e) => setMessage(i, { toolCalls: e.target.value })}
                  aria-label={`Message ${i + 1} tool calls (JSON)`}
                  placeholder='[{"type": "function", "function": {"name": "…", "arguments": {…}}}]'
                  spellCheck={false}
                  className={`${monoArea} mt-1`}
                />
              </details>
            ) : (
              <input type="hidden" name={FIELD.message(i, "tool_calls")} value={m.toolCalls} />
            )}
            {m.role === "tool" ? (
              <div className="mt-1 grid grid-cols-2 gap-2">
                <label className="text-xs text-gray-600 dark:text-gray-400">
                  Tool name
                  <input name={FIELD.message(i, "name")} value={m.name} onChange={(e) => setMessage(i, { name: e.target.value })} className={`${fieldCls} mt-0.5 font-mono`} />
                </label>
                <label className="text-xs text-gray-600 dark:text-gray-400">
                  tool_call_id
                  <input
                    name={FIELD.message(i, "tool_call_id")}
                    value={m.toolCallId}
                    onChange={(e) => setMessage(i, { toolCallId: e.target.value })}
                    className={`${fieldCls} mt-0.5 font-mono`}
                  />
                </label>
              </div>
            ) : (
              <>
                <input type="hidden" name={FIELD.message(i, "name")} value={m.name} />
                <input type="hidden" name={FIELD.message(i, "tool_call_id")} value={m.toolCallId} />
              </>
            )}
          </li>
        ))}
      </ol>
      {messages.length < STATE_LIMITS.messages ? (
        <div className="flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
          <span>Add:</span>
          {MESSAGE_ROLES.map((role) => (
            <button
              key={role}
              type="submit"
              name={FIELD.op}
              value={`add:${role}`}
              className={smallButton}
              onClick={(e) => act(e, () => update({ ...conversation, messages: [...messages, emptyMessage(role)] }))}
            >
              + {role}
            </button>
          ))}
        </div>
      ) : null}
      <label className="block text-sm font-medium text-gray-800 dark:text-gray-200">
        Tools <span className="font-normal text-gray-500 dark:text-gray-400">(JSON array; empty for none)</span>
        <textarea
          name={FIELD.tools}
          value={conversation.tools}
          onChange={(e) => update({ ...conversation, tools: e.target.value })}
          spellCheck={false}
          placeholder="[]"
          maxLength={STATE_LIMITS.toolsChars}
          className={`${monoArea} mt-1`}
          data-ct-tools=""
        />
      </label>
      <input type="hidden" name={FIELD.agp} value="0" />
      <label className="flex items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
        <input
          type="checkbox"
          name={FIELD.agp}
          value="1"
          checked={conversation.addGenerationPrompt}
          onChange={(e) => update({ ...conversation, addGenerationPrompt: e.target.checked })}
          data-ct-agp=""
        />
        <code className="font-mono text-[13px]">add_generation_prompt</code>
      </label>
    </fieldset>
  );
}
