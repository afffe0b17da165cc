#!/usr/bin/env python3
"""Reference chat-template renderer: Python Jinja2 configured the way transformers'
`_compile_jinja_template` / `render_jinja_template` configure it (transformers 4.4x,
src/transformers/utils/chat_template_utils.py):

- ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
  extensions=[<generation tag extension>, jinja2.ext.loopcontrols])
- filters["tojson"] = json.dumps(x, ensure_ascii=False, indent=..., separators=..., sort_keys=...)
- globals raise_exception (raises TemplateError) and strftime_now (datetime.now().strftime)
- render(messages=..., tools=..., documents=..., add_generation_prompt=..., **kwargs)

Used by app/chat-template/reference.test.ts as the oracle. Protocol: one JSON object per input
line on stdin: {"id", "template", "context": {...}, "now": "YYYY-MM-DDTHH:MM:SS" | null}.
One JSON object per output line on stdout, same order:
{"id", "ok": true, "text"} or {"id", "ok": false, "type", "message", "line"}.
`now` pins strftime_now so both engines see the same clock.
"""

import json
import sys
import traceback
from datetime import datetime

import jinja2
import jinja2.ext
import jinja2.nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment


class GenerationTag(jinja2.ext.Extension):
    """transformers' AssistantTracker without the index tracking: `{% generation %}` renders
    its body unchanged, which is all apply_chat_template does unless return_assistant_tokens_mask."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_render_body"), [], [], body).set_lineno(lineno)

    def _render_body(self, caller):
        return caller()


def make_environment(now):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return (now or datetime.now()).strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTag, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def template_line(exc):
    if isinstance(exc, jinja2.exceptions.TemplateSyntaxError):
        return exc.lineno
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


_environments = {}
_templates = {}


def render_case(case):
    now_text = case.get("now")
    env = _environments.get(now_text)
    if env is None:
        env = _environments[now_text] = make_environment(datetime.fromisoformat(now_text) if now_text else None)
    context = dict(case["context"])
    messages = context.pop("messages", [])
    tools = context.pop("tools", None)
    documents = context.pop("documents", None)
    add_generation_prompt = context.pop("add_generation_prompt", False)
    try:
        key = (now_text, case["template"])
        template = _templates.get(key)
        if template is None:
            template = _templates[key] = env.from_string(case["template"])
        text = template.render(
            messages=messages,
            tools=tools,
            documents=documents,
            add_generation_prompt=add_generation_prompt,
            **context,
        )
        return {"id": case["id"], "ok": True, "text": text}
    except Exception as exc:  # every failure is a result to compare, not a crash of the oracle
        return {
            "id": case["id"],
            "ok": False,
            "type": type(exc).__name__,
            "message": str(exc),
            "line": template_line(exc),
        }


def main():
    sys.setrecursionlimit(3000)
    out = sys.stdout
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        case = json.loads(raw)
        try:
            result = render_case(case)
        except RecursionError:
            result = {"id": case["id"], "ok": False, "type": "RecursionError", "message": "recursion", "line": None}
        except Exception:  # noqa: BLE001 - report oracle failures instead of dying mid-batch
            result = {"id": case["id"], "ok": False, "type": "OracleError", "message": traceback.format_exc(), "line": None}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    if jinja2.__version__ != "3.1.6":
        sys.stderr.write(f"warning: reference expects Jinja2 3.1.6, found {jinja2.__version__}\n")
    main()
