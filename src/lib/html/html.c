/* html.c (html): the HTML report's page frame: head with the inline
 * stylesheet (light and dark themes, print), header, table of contents
 * of the sections present, and the four sections in order. Nothing is
 * fetched: the page is one self-contained file.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "html-int.h"
#include "sn/schema.h"
#include "sn/spec.h"

/* The stylesheet. Colours are variables so the dark theme and print
 * only redefine them; series colours are the Okabe-Ito palette (safe for
 * the common colour-vision deficiencies), each series also told apart
 * by its marker shape. Sections use these classes only. */
static const char css[] =
    ":root{--bg:#fff;--fg:#1b1d21;--mut:#5b6068;--ax:#4a4f57;"
    "--grid:#e4e6ea;--box:#f3f4f6;--edge:#9aa0a8;--bad:#c0392b;"
    "--warn:#b26b00;--ok:#2e7d32;--lim:#c0392b;"
    "--c0:#0072b2;--c1:#e69f00;--c2:#009e73;--c3:#cc79a7;--c4:#56b4e9;"
    "--c5:#d55e00;--c6:#7f7f00;color-scheme:light dark}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#14171c;--fg:#e6e8eb;"
    "--mut:#a4aab3;--ax:#b8bec7;--grid:#2c3139;--box:#20252c;"
    "--edge:#5d6570;--bad:#ff6b5b;--warn:#f0a030;--ok:#66bb6a;"
    "--lim:#ff6b5b;--c0:#4fa3e0;--c1:#f0b429;--c2:#2fc49a;--c3:#e39ac6;"
    "--c4:#8dd0f5;--c5:#ff8a4c;--c6:#d4d44a}}\n"
    ".tip{position:fixed;z-index:9;pointer-events:none;max-width:36em;"
    "background:var(--box);color:var(--fg);border:1px solid var(--edge);"
    "border-radius:4px;padding:3px 8px;font-size:.9em}\n"
    "@media print{.tip{display:none}}\n"
    "@media print{:root{--bg:#fff;--fg:#000;--mut:#444;--ax:#333;"
    "--grid:#ddd;--box:#f3f3f3;--edge:#888;--c0:#0072b2;--c1:#e69f00;"
    "--c2:#009e73;--c3:#cc79a7;--c4:#56b4e9;--c5:#d55e00;--c6:#7f7f00}"
    "nav.toc{display:none}figure,table{break-inside:avoid}"
    "section{break-before:page}main{max-width:none}}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
    "'DejaVu Sans',sans-serif}\n"
    "main{max-width:1120px;margin:0 auto;padding:16px 24px 48px}\n"
    "h1{font-size:1.6em;margin:.4em 0 .2em}h2{font-size:1.3em;"
    "border-bottom:1px solid var(--grid);padding-bottom:.2em;"
    "margin-top:1.8em}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".meta,.note{color:var(--mut);font-size:.9em}\n"
    "a{color:var(--c0)}\n"
    "nav.toc{background:var(--box);padding:8px 16px;border-radius:6px}"
    "nav.toc ol{margin:.3em 0;padding-left:1.4em}nav.toc li{margin:.1em 0}\n"
    "figure{margin:1em 0 1.6em;overflow-x:auto}"
    "figcaption{font-weight:600;margin-bottom:.4em}\n"
    "figure svg{display:block;max-width:100%;height:auto}\n"
    "table.data{border-collapse:collapse;margin:.5em 0 1em;"
    "font-variant-numeric:tabular-nums}"
    "table.data th,table.data td{border-bottom:1px solid var(--grid);"
    "padding:3px 10px;text-align:left}"
    "table.data td.n,table.data th.n{text-align:right}\n"
    "svg text{fill:var(--fg);font:12px system-ui,'DejaVu Sans',sans-serif}"
    "\nsvg .tk,svg .sm,svg .lg{font-size:11px;fill:var(--mut)}"
    "svg .at{font-size:12px;fill:var(--fg)}"
    "svg .hd{font-size:13px;font-weight:600}\n"
    "svg .ax{stroke:var(--ax);stroke-width:1}"
    "svg .grid{stroke:var(--grid);stroke-width:1}\n"
    "svg .node{fill:var(--box);stroke:var(--edge)}"
    "svg .unit{fill:none;stroke:var(--edge);stroke-dasharray:4 3}"
    "svg .link{stroke:var(--edge);stroke-width:1.5}"
    "svg .empty{fill:none;stroke:var(--grid)}\n"
    "svg .lim{stroke:var(--lim);stroke-width:1.5;stroke-dasharray:5 3}"
    "svg .bad{fill:var(--bad);stroke:var(--bad)}"
    "svg text.bad{stroke:none}svg .warn{fill:var(--warn)}"
    "svg .ok{fill:var(--ok)}\n"
    "svg .s0{stroke:var(--c0)}svg .s1{stroke:var(--c1)}"
    "svg .s2{stroke:var(--c2)}svg .s3{stroke:var(--c3)}"
    "svg .s4{stroke:var(--c4)}svg .s5{stroke:var(--c5)}"
    "svg .s6{stroke:var(--c6)}"
    "svg path.s0,svg path.s1,svg path.s2,svg path.s3,svg path.s4,"
    "svg path.s5,svg path.s6{stroke-width:2;fill:none}\n"
    "svg .f0{fill:var(--c0)}svg .f1{fill:var(--c1)}svg .f2{fill:var(--c2)}"
    "svg .f3{fill:var(--c3)}svg .f4{fill:var(--c4)}svg .f5{fill:var(--c5)}"
    "svg .f6{fill:var(--c6)}"
    "svg .mk{stroke:var(--bg);stroke-width:1}\n"
    "svg .front{stroke:var(--fg);stroke-width:1.5;fill:none;"
    "stroke-dasharray:6 3}"
    "svg .pick{fill:none;stroke:var(--fg);stroke-width:2}\n"
    "svg .dash{stroke-dasharray:3 3}"
    "svg .badge{fill:var(--bg);stroke:var(--edge)}"
    "svg .bt{font-size:11px;font-weight:600}"
    "svg .srv{fill:var(--c4);fill-opacity:.35;stroke:var(--c0)}"
    "svg .swb{fill:var(--c1);fill-opacity:.35;stroke:var(--c1)}"
    "svg .ru{font-size:9px}svg .lbl{font-size:12px}"
    "svg text.inv{fill:var(--bg)}\n";

void sn__html_escape(struct sn_buf *b, const char *s)
{
    sn__svg_escape(b, s); /* the same five entities serve HTML and XML */
}

void sn__html_section_open(struct sn_buf *b, const char *id, const char *title)
{
    sn_buf_puts(b, "<section id=\"");
    sn__html_escape(b, id);
    sn_buf_puts(b, "\"><h2>");
    sn__html_escape(b, title);
    sn_buf_puts(b, "</h2>\n");
}

void sn__html_section_close(struct sn_buf *b)
{
    sn_buf_puts(b, "</section>\n");
}

void sn__html_figure_open(struct sn_buf *b, const char *id, const char *caption)
{
    sn_buf_puts(b, "<figure id=\"");
    sn__html_escape(b, id);
    sn_buf_puts(b, "\"><figcaption>");
    sn__html_escape(b, caption);
    sn_buf_puts(b, "</figcaption>\n");
}

void sn__html_figure_close(struct sn_buf *b)
{
    sn_buf_puts(b, "</figure>\n");
}

/* Copy the (already escaped) text between *p and the next `end` into b
 * and move *p past it; false when end is absent. */
static bool copy_until(struct sn_buf *b, const char **p, const char *end)
{
    const char *q = strstr(*p, end);

    if (!q)
        return false;
    sn_buf_append(b, *p, (size_t)(q - *p));
    *p = q + strlen(end);
    return true;
}

/* The table of contents, read back from the body the helpers above
 * wrote: every section and the figures inside it, in order. Their text
 * is escaped already and '<' cannot appear in it, so the markers are
 * found only where the helpers put them. */
static void write_toc(struct sn_buf *out, const char *body)
{
    static const char sec[] = "<section id=\"", fig[] = "<figure id=\"";
    const char *p = body;
    bool in_sec = false, in_figs = false;

    sn_buf_puts(out, "<nav class=\"toc\" aria-label=\"contents\">"
                     "<strong>Contents</strong>\n<ol>\n");
    for (;;) {
        const char *s = strstr(p, sec), *f = strstr(p, fig);
        bool is_sec = s && (!f || s < f);
        const char *at = is_sec ? s : f;
        struct sn_buf id = SN_BUF_INIT;

        if (!at)
            break;
        p = at + (is_sec ? sizeof(sec) : sizeof(fig)) - 1;
        if (!copy_until(&id, &p, "\">")) {
            sn_buf_release(&id);
            break;
        }
        if (is_sec) {
            sn_buf_puts(out, in_figs ? "</ol>" : "");
            sn_buf_puts(out, in_sec ? "</li>\n" : "");
            in_sec = true;
            in_figs = false;
            p += strlen("<h2>");
        } else {
            sn_buf_puts(out, in_figs ? "" : "<ol>");
            in_figs = true;
            p += strlen("<figcaption>");
        }
        sn_buf_printf(out, "<li><a href=\"#%s\">", id.data);
        copy_until(out, &p, is_sec ? "</h2>" : "</figcaption>");
        sn_buf_puts(out, is_sec ? "</a>" : "</a></li>");
        sn_buf_release(&id);
    }
    sn_buf_puts(out, in_figs ? "</ol>" : "");
    sn_buf_puts(out, in_sec ? "</li>\n" : "");
    sn_buf_puts(out, "</ol></nav>\n");
}

static void write_head(struct sn_buf *out, const struct sn_html_in *in,
                       const char *title)
{
    char when[40] = "";

    sn_buf_puts(out, "<!doctype html>\n<html lang=\"en\">\n<head>\n"
                     "<meta charset=\"utf-8\"/>\n"
                     "<meta name=\"viewport\" "
                     "content=\"width=device-width,initial-scale=1\"/>\n"
                     "<meta name=\"generator\" content=\"supernode " SN_VERSION
                     " (" SN_SCHEMA_REPORT ")\"/>\n<title>");
    sn__html_escape(out, title);
    sn_buf_printf(out,
                  "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
                  "<main>\n<header><h1>",
                  css);
    sn__html_escape(out, title);
    sn_buf_puts(out, "</h1>\n<p class=\"meta\">");
    if (in->spec_path) {
        sn_buf_puts(out, "spec ");
        sn__html_escape(out, in->spec_path);
        sn_buf_puts(out, " &#183; ");
    }
    if (in->now > 0) {
        time_t t = (time_t)in->now;
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
    }
    if (*when)
        sn_buf_printf(out, "generated %s &#183; ", when);
    sn_buf_puts(out, "supernode " SN_VERSION "</p>\n</header>\n");
}

/* The page's one script, at its end: the value of the mark under the
 * pointer at once (the mark's <title>, which browsers show only after a
 * pause) and a double click on a drawing to enlarge it twice there, again
 * (or Escape) to go back. The page reads whole without it; nothing is
 * fetched. CDATA keeps the page well-formed XML: the code has no '<' or
 * '&' anyway. */
static const char script[] =
    "<script>//<![CDATA[\n"
    "(function () {\n"
    "  var tip = document.createElement('div');\n"
    "  tip.className = 'tip';\n"
    "  tip.hidden = true;\n"
    "  document.body.appendChild(tip);\n"
    "  function titleOf(e) {\n"
    "    if (!e.closest || !e.closest('svg') || e.tagName === 'svg')\n"
    "      return null;\n"
    "    for (var c = e.firstElementChild; c; c = c.nextElementSibling)\n"
    "      if (c.tagName === 'title') return c.textContent;\n"
    "    return null;\n"
    "  }\n"
    "  document.addEventListener('mousemove', function (ev) {\n"
    "    var t = titleOf(ev.target);\n"
    "    tip.hidden = !t;\n"
    "    if (!t) return;\n"
    "    tip.textContent = t;\n"
    "    tip.style.left = Math.max(0, Math.min(ev.clientX + 14,\n"
    "      window.innerWidth - tip.offsetWidth - 4)) + 'px';\n"
    "    tip.style.top = Math.max(0, Math.min(ev.clientY + 18,\n"
    "      window.innerHeight - tip.offsetHeight - 4)) + 'px';\n"
    "  });\n"
    "  function reset(s) {\n"
    "    s.setAttribute('viewBox', s.dataset.box);\n"
    "    delete s.dataset.box;\n"
    "  }\n"
    "  document.addEventListener('dblclick', function (ev) {\n"
    "    var s = ev.target.closest ? ev.target.closest('figure svg') : null;\n"
    "    if (!s || !s.viewBox || !s.getScreenCTM()) return;\n"
    "    if (s.dataset.box) return reset(s);\n"
    "    var b = s.viewBox.baseVal, p = s.createSVGPoint();\n"
    "    p.x = ev.clientX;\n"
    "    p.y = ev.clientY;\n"
    "    p = p.matrixTransform(s.getScreenCTM().inverse());\n"
    "    s.dataset.box = s.getAttribute('viewBox');\n"
    "    s.setAttribute('viewBox', [p.x - b.width / 4, p.y - b.height / 4,\n"
    "      b.width / 2, b.height / 2].join(' '));\n"
    "  });\n"
    "  document.addEventListener('keydown', function (ev) {\n"
    "    if (ev.key !== 'Escape') return;\n"
    "    document.querySelectorAll('svg[data-box]').forEach(reset);\n"
    "  });\n"
    "})();\n"
    "//]]></script>\n";

int sn_html_report(const struct sn_html_in *in, struct sn_buf *out,
                   struct sn_error *err)
{
    static int (*const sections[])(struct sn_buf *, const struct sn_html_in *,
                                   struct sn_error *) = {
        sn__html_design, sn__html_predict, sn__html_run, sn__html_power,
        sn__html_history};
    struct sn_buf body = SN_BUF_INIT;
    const char *title = in->title;
    int rc = SN_OK;

    for (size_t i = 0; i < SN_ARRAY_LEN(sections) && !rc; i++)
        rc = sections[i](&body, in, err);
    if (rc)
        goto out;
    if (!title)
        title =
            in->spec && in->spec->name ? in->spec->name : "supernode report";
    write_head(out, in, title);
    if (body.len) {
        write_toc(out, body.data);
        sn_buf_append(out, body.data, body.len);
    } else {
        sn_buf_puts(out, "<p class=\"note\">Nothing to show: give a spec, "
                         "a model or runs from a store.</p>\n");
    }
    sn_buf_puts(out, "</main>\n");
    sn_buf_puts(out, script);
    sn_buf_puts(out, "</body>\n</html>\n");
out:
    sn_buf_release(&body);
    return rc;
}
