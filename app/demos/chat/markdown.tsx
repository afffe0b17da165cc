/**
 * Assistant replies as markdown, rendered in the browser while they stream. Built from React text
 * nodes only (no HTML string is ever injected), so model output cannot smuggle markup: the
 * subset is paragraphs, headings, lists, quotes, fenced code, inline code, bold, italic and
 * http(s) links. The server-side renderer (unified + shiki) stays on the server.
 */
import { Fragment, type ReactNode } from "react";

type Block =
  | { kind: "code"; lang: string; text: string }
  | { kind: "heading"; depth: number; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "paragraph"; text: string };

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const fence = /^\s*(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      const marker = fence[1] ?? "```";
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? "").trim().startsWith(marker)) body.push(lines[i++] ?? "");
      i += 1; // closing fence (absent while a reply is still streaming)
      blocks.push({ kind: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      i += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", depth: heading[1]?.length ?? 1, text: heading[2] ?? "" });
      i += 1;
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && bullet.test(lines[i] ?? "")) {
        let item = (lines[i] ?? "").replace(bullet, "");
        i += 1;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i] ?? "") && !bullet.test(lines[i] ?? "")) item += ` ${(lines[i++] ?? "").trim()}`;
        items.push(item);
      }
      blocks.push({ kind: "list", ordered, items });
      continue;
    }
    if (line.startsWith(">")) {
      const quoted: string[] = [];
      while (i < lines.length && (lines[i] ?? "").startsWith(">")) quoted.push((lines[i++] ?? "").replace(/^>\s?/, ""));
      blocks.push({ kind: "quote", text: quoted.join("\n") });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length) {
      const l = lines[i] ?? "";
      if (l.trim() === "" || /^\s*(```|~~~)/.test(l) || /^#{1,6}\s/.test(l) || bullet.test(l) || l.startsWith(">")) break;
      para.push(l);
      i += 1;
    }
    blocks.push({ kind: "paragraph", text: para.join("\n") });
  }
  return blocks;
}

const INLINE = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|__([^_]+?)__|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

export function renderInline(text: string, keyPrefix = "i"): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const key = `${keyPrefix}-${n++}`;
    if (m[2] !== undefined) out.push(<code key={key} className="rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-gray-800">{m[2]}</code>);
    else if (m[3] !== undefined || m[4] !== undefined) out.push(<strong key={key}>{renderInline(m[3] ?? m[4] ?? "", key)}</strong>);
    else if (m[5] !== undefined) out.push(<em key={key}>{renderInline(m[5], key)}</em>);
    else if (m[6] !== undefined && m[7] !== undefined)
      out.push(
        <a key={key} href={m[7]} target="_blank" rel="noopener noreferrer nofollow ugc" className="text-indigo-700 underline dark:text-indigo-300">
          {m[6]}
        </a>,
      );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function withBreaks(text: string, key: string): ReactNode[] {
  return text.split("\n").map((line, i) => (
    <Fragment key={`${key}-${i}`}>
      {i > 0 ? <br /> : null}
      {renderInline(line, `${key}-${i}`)}
    </Fragment>
  ));
}

export function ChatMarkdown({ source }: { source: string }) {
  const blocks = parseBlocks(source);
  return (
    <div className="space-y-2 break-words" data-chat-markdown="">
      {blocks.map((b, i) => {
        const key = `b${i}`;
        switch (b.kind) {
          case "code":
            return (
              <pre key={key} className="overflow-x-auto rounded-md bg-gray-900 p-3 text-[0.8rem] leading-relaxed text-gray-100 dark:bg-black" data-lang={b.lang || undefined}>
                {b.lang ? <span className="mb-1 block text-[0.7rem] uppercase tracking-wide text-gray-400">{b.lang}</span> : null}
                <code className="font-mono">{b.text}</code>
              </pre>
            );
          case "heading":
            return (
              <p key={key} className="font-semibold">
                {renderInline(b.text, key)}
              </p>
            );
          case "list": {
            const items = b.items.map((item, j) => <li key={`${key}-${j}`}>{renderInline(item, `${key}-${j}`)}</li>);
            return b.ordered ? (
              <ol key={key} className="list-decimal space-y-1 pl-5">
                {items}
              </ol>
            ) : (
              <ul key={key} className="list-disc space-y-1 pl-5">
                {items}
              </ul>
            );
          }
          case "quote":
            return (
              <blockquote key={key} className="border-l-2 border-gray-300 pl-3 text-gray-700 dark:border-gray-600 dark:text-gray-300">
                {withBreaks(b.text, key)}
              </blockquote>
            );
          default:
            return <p key={key}>{withBreaks(b.text, key)}</p>;
        }
      })}
    </div>
  );
}
