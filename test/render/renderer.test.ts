// The renderer beyond what the captures show: send mode (the preheader block filled in, the sender
// name rendered), layout variables, editor blocks, what a render must leave untouched, errors
// naming their field, and the channels' contexts.
import Handlebars from "handlebars";
import { describe, expect, it, vi } from "vitest";
import { loadRenderer, RenderError } from "../../src/render/index.js";

const renderer = await loadRenderer();
const FILLER = `${"&nbsp;&zwnj;".repeat(232)}&nbsp;`;

describe("renderEmail in send mode", () => {
  it("renders the preheader into the block after <body…> and the sender name, both trimmed", () => {
    const email = renderer.renderEmail(
      {
        subject: "Hi {{name}}",
        content: "<p>{{name}}</p>",
        contentType: "customHtml",
        preheader: "  Your order {{orderId}} <shipped>  ",
        senderName: "  {{company}} Team  ",
      },
      {
        payload: { name: "Ada", orderId: "A-1", company: "Acme" },
        layout: { content: '<html>\n<body class="x">\n<main>{{{body}}}</main>\n</body>\n</html>' },
      },
    );
    // The preheader is text like the subject (template text unescaped); the block prints it escaped.
    expect(email.preheader).toBe("Your order A-1 <shipped>");
    expect(email.senderName).toBe("Acme Team");
    expect(email.html).toBe(
      '<html>\n<body class="x">\n' +
        '          <div style="display: none; max-height: 0px; overflow: hidden;">\n' +
        "            Your order A-1 &lt;shipped&gt;\n" +
        `            ${FILLER}\n` +
        "          </div>\n" +
        "<main><p>Ada</p></main>\n</body>\n</html>",
    );
  });

  it("ignores preheader and sender name in preview mode, as the server's preview route does", () => {
    const email = renderer.renderEmail(
      { subject: "S", content: "x", contentType: "customHtml", preheader: "P", senderName: "N" },
      { payload: {}, mode: "preview", layout: { content: "<body>[{{preheader}}]{{{body}}}</body>" } },
    );
    expect(email).toEqual({ subject: "S", html: "<body>[]x</body>", content: "x" });
  });

  it("wraps editor blocks in Novu's default layout when the step names none, with the brand color", () => {
    const email = renderer.renderEmail(
      { subject: "S", content: [{ type: "button", content: "Go", url: "https://x.example/{{id}}" }] },
      { payload: { id: 7 }, branding: { color: "#0f62fe", logo: "https://x.example/logo.png" } },
    );
    expect(email.html).toContain('src="https://x.example/logo.png"');
    expect(email.html).toContain("border-top: 4px solid #0f62fe;");
    expect(email.html).toContain('href="https://x.example/7"');
    expect(email.html).toContain("background: #0f62fe;");
    expect(email.content).toEqual([{ type: "button", content: "Go", url: "https://x.example/7" }]);
  });

  it("leaves an empty wrapper for a block of another type", () => {
    const email = renderer.renderEmail(
      { subject: "S", contentType: "editor", content: [{ type: "image", content: "x" }] },
      { payload: {}, layout: { content: "{{{body}}}" } },
    );
    expect(email.html).toBe(
      '\n  <div style="margin-bottom: 10px" data-test-id="block-item-wrapper">\n  </div>\n',
    );
  });
});

describe("layout variables", () => {
  const layout = {
    content: "<body>{{{body}}}|{{legal.text}}|{{footer}}|{{#each links}}{{this}};{{/each}}</body>",
    variables: [
      { name: "legal.text", type: "String", required: false, defaultValue: "(c) Acme" },
      { name: "footer", type: "String", defaultValue: "Sent by Acme" },
      { name: "links", type: "Array", required: true },
      { name: "opted", type: "Boolean", required: true },
      { name: "branding.color", type: "String", required: true },
    ],
  };

  it("refuses a payload without a required variable of the right type, naming each, as the server does", () => {
    let thrown: unknown;
    try {
      renderer.renderEmail(
        { subject: "S", content: "x", contentType: "customHtml" },
        { payload: { links: "a" }, layout },
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RenderError);
    expect((thrown as RenderError).kind).toBe("payload");
    expect((thrown as RenderError).message).toBe(
      "payload is missing required key(s) and type(s): links (Array), opted (Boolean)",
    );
  });

  it("fills nested defaults under the payload, which always wins", () => {
    const email = renderer.renderEmail(
      { subject: "S", content: "x", contentType: "customHtml" },
      { payload: { links: ["a", "b"], opted: false, footer: "Mine" }, layout },
    );
    expect(email.html).toBe("<body>x|(c) Acme|Mine|a;b;</body>");
  });
});

describe("what rendering must not change", () => {
  it("{{log}} and prototype names render nothing and write nothing to the console (the CLI's output)", () => {
    const methods = ["log", "info", "warn", "error", "debug"] as const;
    const spies = methods.map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
    try {
      const sms = renderer.renderSms({ content: "a{{log token}}{{log}}b" }, { payload: { token: "s3cret" } });
      expect(sms.content).toBe("ab");
      // Nor Handlebars' own warning for a name it will not resolve from a prototype.
      const denied = renderer.renderSms(
        { content: "{{constructor}}{{x.__proto__}}{{toString}}" },
        { payload: { x: {} } },
      );
      expect(denied.content).toBe("");
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("leaves the caller's payload as it was, though sortBy sorts in place like the server's", () => {
    const payload = { people: [{ n: "b" }, { n: "a" }] };
    const email = renderer.renderEmail(
      {
        subject: "{{#each (sortBy people 'n')}}{{n}}{{/each}}",
        content: "{{#each people}}{{n}}{{/each}}",
        contentType: "customHtml",
      },
      { payload },
    );
    expect(email.subject).toBe("ab");
    // The subject's sort reached the body, as on the server, whose context is one copy.
    expect(email.html).toBe("ab");
    expect(payload.people.map((p) => p.n)).toEqual(["b", "a"]);
  });

  it("never reads a prototype's properties, and a payload key __proto__ changes nothing", () => {
    const payload = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": {"constructor": "c"}}');
    const sms = renderer.renderSms(
      { content: "[{{polluted}}][{{a.constructor}}][{{a.toString}}]" },
      { payload },
    );
    expect(sms.content).toBe("[][c][]");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("errors", () => {
  it("name the field that failed, with the engine's message and position", () => {
    let thrown: unknown;
    try {
      renderer.renderEmail(
        {
          subject: "ok",
          contentType: "editor",
          content: [
            { type: "text", content: "a" },
            { type: "button", content: "b", url: "x\n{{#if}}" },
          ],
        },
        { payload: {} },
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RenderError);
    expect((thrown as RenderError).field).toBe("content[1].url");
    expect((thrown as RenderError).kind).toBe("parse");
    expect((thrown as RenderError).at).toEqual({ line: 2, col: 8 });
  });

  it("a helper's own failure is a render error with the server's message", () => {
    expect(() => renderer.renderSms({ content: "{{uppercase n}}" }, { payload: { n: 5 } })).toThrow(
      new RenderError("render", "value.toUpperCase is not a function", { field: "content" }),
    );
    expect(() => renderer.renderSms({ content: "{{#equals a}}x{{/equals}}" }, { payload: { a: 1 } })).toThrow(
      "Cannot read properties of undefined (reading 'inverse')",
    );
    expect(() => renderer.renderSms({ content: "{{numberFormat}}" }, { payload: {} })).toThrow(
      "Cannot read properties of undefined (reading 'hash')",
    );
  });
});

describe("channels", () => {
  it("in-app sees the organization's branding, SMS, chat and push the payload's", () => {
    const context = { payload: { branding: { color: "#000" } }, branding: { color: "#111" } };
    expect(renderer.renderInApp({ content: "{{branding.color}}" }, context)).toEqual({
      content: "#111",
      ctaButtons: [],
    });
    expect(renderer.renderSms({ content: "{{branding.color}}" }, context).content).toBe("#000");
    expect(renderer.renderChat({ content: "{{branding.color}}" }, context).content).toBe("#000");
    expect(renderer.renderPush({ content: "{{branding.color}}" }, context)).toEqual({ content: "#000" });
  });
});

describe("templates that differ only in their text", () => {
  it("share one compiled skeleton yet each renders its own text, escapes and stripping included", () => {
    const texts = [
      "Order {{id}} (workflow 1) \\{{id}}",
      "Commande {{id}} (flux 22) \\{{id}}",
      "<ul>\n  {{~#each items~}}\n  <li>{{this}}</li>\n  {{~/each~}}\n</ul>{{{{raw}}}}{{x}}{{{{/raw}}}}",
      "<ol>\n  {{~#each items~}}\n  <i>{{this}}</i>\n  {{~/each~}}\n</ol>{{{{raw}}}}{{y}}{{{{/raw}}}}",
    ];
    const payload = { id: 7, items: [1, 2], raw: true };
    const rendered = [...texts, ...texts].map(
      (content) => renderer.renderSms({ content }, { payload }).content,
    );
    expect(rendered.slice(0, 4)).toEqual([
      "Order 7 (workflow 1) {{id}}",
      "Commande 7 (flux 22) {{id}}",
      "<ul><li>1</li><li>2</li></ul>{{x}}",
      "<ol><i>1</i><i>2</i></ol>{{y}}",
    ]);
    expect(rendered.slice(4)).toEqual(rendered.slice(0, 4));
  });

  it("print a helper's options ({{json}}) as a plain compile does: no texts of ours, their own position", () => {
    // The oracle: Handlebars itself, each template compiled on its own, with the server's json.
    const plain = Handlebars.create();
    plain.registerHelper("json", (value: unknown) => JSON.stringify(value));
    const texts = [
      "Hello there {{json}}",
      "Hi {{json}}",
      "Hi {{{json}}}{{#each xs}} {{json}}{{/each}}",
      "Hello {{{json}}}{{#each xs}} {{json}}{{/each}}",
      "Hi {{{json k=1}}}",
    ];
    const payload = { a: 1, xs: [1] };
    for (const content of texts) {
      const expected = plain.compile(content)(payload).replaceAll("&#x27;", "'");
      expect(renderer.renderSms({ content }, { payload }).content, content).toBe(expected);
    }
    expect(renderer.renderSms({ content: texts[1] as string }, { payload }).content).not.toContain(
      "notiform",
    );
  });

  it("never share a skeleton when anything but their text differs", () => {
    // Same texts, different names, helpers, escaping, comments, stripping or block kinds.
    const texts = [
      "a {{x}} b",
      "a {{y}} b",
      "a {{{x}}} b",
      "a {{uppercase x}} b",
      "a {{lowercase x}} b",
      "a {{!x}} b",
      "a {{~x}} b",
      "a {{#if x}}yes{{/if}} b",
      "a {{#unless x}}yes{{/unless}} b",
      "a {{#if x}}yes{{else}}no{{/if}} b",
      'a {{x "1"}} b',
    ];
    const payload = { x: "<Q>", y: "<R>" };
    const rendered = texts.map((content) => {
      try {
        return renderer.renderSms({ content }, { payload }).content;
      } catch (error) {
        return `error: ${(error as Error).message}`;
      }
    });
    expect(rendered.slice(0, 10)).toEqual([
      "a &lt;Q&gt; b",
      "a &lt;R&gt; b",
      "a <Q> b",
      "a &lt;Q&gt; b",
      "a &lt;q&gt; b",
      "a  b",
      "a&lt;Q&gt; b",
      "a yes b",
      "a  b",
      "a yes b",
    ]);
    expect(rendered[10]).toMatch(/^error: /);
  });
});
