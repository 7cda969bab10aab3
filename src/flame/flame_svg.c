/* The flame graph as one self-contained SVG document: a frame per tree
 * node, the root at the bottom, each frame as wide as its share of the
 * samples.  A small script in the document does the interaction: hover
 * shows the frame and its share, a click zooms to a frame (its callers
 * stay as full-width bars), Ctrl-F or "Search" highlights frames matching
 * a regular expression and sums their share, "Reset" undoes both. */
#include <string.h>

#include "flame.h"

#define FRAME_H 16     /* pixels per stack level */
#define PAD_X 10       /* left and right margins */
#define PAD_TOP 36     /* title and buttons */
#define PAD_BOTTOM 30  /* the details line */
#define CHAR_W 7.0     /* average glyph width of the 12px font */
#define MIN_W 0.1      /* frames narrower than this (pixels) are left out */

typedef struct Draw {
	FILE *out;
	const FlameSvgOpts *o;
	uint64_t total;
	double scale; /* pixels per sample */
	int height;
} Draw;

static void put_xml_escaped(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* control bytes are not allowed in XML 1.0 */
			fputc((unsigned char)s[i] < 0x20 ? '?' : s[i], f);
		}
	}
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Warm colours for code, orange for kernel frames (_[k]), grey for frames
 * without a symbol ([module]) and the root; stable per name. */
static void frame_color(const char *name, char *buf, size_t n)
{
	uint32_t h = name_hash(name);
	double a = (h & 0xff) / 255.0, b = ((h >> 8) & 0xff) / 255.0;
	size_t len = strlen(name);
	if (len > 4 && !strcmp(name + len - 4, "_[k]"))
		snprintf(buf, n, "rgb(%d,%d,%d)", 220 + (int)(35 * a), 120 + (int)(70 * b), 40);
	else if (name[0] == '[' || !strcmp(name, "all"))
		snprintf(buf, n, "rgb(%d,%d,%d)", 170 + (int)(30 * a), 170 + (int)(30 * a),
			 175 + (int)(30 * a));
	else
		snprintf(buf, n, "rgb(%d,%d,%d)", 205 + (int)(50 * b), (int)(200 * a), (int)(50 * b));
}

/* The label that fits in w pixels: the name, or its start and "..". */
static void put_label(FILE *f, const char *name, double w)
{
	int fit = (int)((w - 6) / CHAR_W);
	size_t len = strlen(name);
	if (fit < 3)
		return;
	if (len <= (size_t)fit) {
		put_xml_escaped(f, name, len);
		return;
	}
	put_xml_escaped(f, name, (size_t)fit - 2);
	fputs("..", f);
}

static void draw_node(Draw *d, const FlameNode *n, uint64_t start, int depth)
{
	double w = (double)n->value * d->scale;
	if (w < MIN_W)
		return;
	double x = PAD_X + (double)start * d->scale;
	int y = d->height - PAD_BOTTOM - (depth + 1) * FRAME_H;
	char color[64];
	frame_color(n->name, color, sizeof(color));
	fprintf(d->out, "<g class=\"f\" data-s=\"%llu\" data-n=\"%llu\" data-d=\"%d\"><title>",
		(unsigned long long)start, (unsigned long long)n->value, depth);
	put_xml_escaped(d->out, n->name, strlen(n->name));
	fprintf(d->out, " (%llu %s, %.2f%%)</title>", (unsigned long long)n->value, d->o->units,
		d->total ? 100.0 * (double)n->value / (double)d->total : 0.0);
	fprintf(d->out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
		x, y, w, FRAME_H - 1, color);
	fprintf(d->out, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + FRAME_H - 5);
	put_label(d->out, n->name, w);
	fputs("</text></g>\n", d->out);
	uint64_t at = start;
	for (int i = 0; i < n->nkids; i++) {
		draw_node(d, n->kids[i], at, depth + 1);
		at += n->kids[i]->value;
	}
}

/* The interaction, written for this file (no external scripts). */
static const char script[] =
	"var fg = {};\n"
	"function fg_init() {\n"
	"  var svg = document.getElementsByTagName('svg')[0];\n"
	"  fg.w = +svg.getAttribute('width'); fg.pad = 10;\n"
	"  fg.frames = Array.prototype.slice.call(document.getElementsByClassName('f'));\n"
	"  fg.frames.forEach(function (g) {\n"
	"    g.fs = +g.getAttribute('data-s'); g.fn = +g.getAttribute('data-n');\n"
	"    g.fd = +g.getAttribute('data-d');\n"
	"    var t = g.getElementsByTagName('title')[0].textContent;\n"
	"    g.info = t; g.name = t.substring(0, t.lastIndexOf(' ('));\n"
	"    g.r = g.getElementsByTagName('rect')[0]; g.t = g.getElementsByTagName('text')[0];\n"
	"    g.fill = g.r.getAttribute('fill');\n"
	"    g.onmouseover = function () { fg_el('details').textContent = g.info; };\n"
	"    g.onmouseout = function () { fg_el('details').textContent = ' '; };\n"
	"    g.onclick = function () { fg_zoom(g); };\n"
	"    if (g.fd === 0) fg.root = g;\n"
	"  });\n"
	"  fg_el('reset').onclick = fg_reset;\n"
	"  fg_el('search').onclick = fg_search;\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.keyCode === 70)) {\n"
	"      e.preventDefault(); fg_search();\n"
	"    } else if (e.key === 'Escape') fg_reset();\n"
	"  });\n"
	"}\n"
	"function fg_el(id) { return document.getElementById(id); }\n"
	"function fg_label(g, w) {\n"
	"  var fit = Math.floor((w - 6) / 7);\n"
	"  g.t.textContent = fit < 3 ? '' : g.name.length <= fit ? g.name\n"
	"    : g.name.substring(0, fit - 2) + '..';\n"
	"}\n"
	"function fg_place(g, x, w, faded) {\n"
	"  g.style.display = w < 0.1 ? 'none' : '';\n"
	"  g.style.opacity = faded ? 0.5 : 1;\n"
	"  g.r.setAttribute('x', x.toFixed(2)); g.r.setAttribute('width', w.toFixed(2));\n"
	"  g.t.setAttribute('x', (x + 3).toFixed(2)); fg_label(g, w);\n"
	"}\n"
	"function fg_zoom(z) {\n"
	"  var full = fg.w - 2 * fg.pad, scale = full / z.fn, end = z.fs + z.fn;\n"
	"  fg.frames.forEach(function (g) {\n"
	"    var inside = g.fs >= z.fs && g.fs + g.fn <= end;\n"
	"    if (g.fd >= z.fd && inside)\n"
	"      fg_place(g, fg.pad + (g.fs - z.fs) * scale, g.fn * scale, false);\n"
	"    else if (g.fd < z.fd && g.fs <= z.fs && g.fs + g.fn >= end)\n"
	"      fg_place(g, fg.pad, full, true);\n"
	"    else g.style.display = 'none';\n"
	"  });\n"
	"  fg_el('reset').style.display = z === fg.root ? 'none' : '';\n"
	"}\n"
	"function fg_search() {\n"
	"  var q = prompt('Search frames (regular expression)', fg.query || '');\n"
	"  if (q === null) return;\n"
	"  fg_mark(q);\n"
	"}\n"
	"function fg_mark(q) {\n"
	"  fg.query = q;\n"
	"  var re = null;\n"
	"  try { re = q ? new RegExp(q) : null; } catch (err) { alert('Bad expression: ' + err); return; }\n"
	"  var hits = [];\n"
	"  fg.frames.forEach(function (g) {\n"
	"    var hit = re !== null && re.test(g.name);\n"
	"    g.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : g.fill);\n"
	"    if (hit) hits.push(g);\n"
	"  });\n"
	"  /* share of the samples under any match, nested matches counted once */\n"
	"  hits.sort(function (a, b) { return a.fs - b.fs || a.fd - b.fd; });\n"
	"  var sum = 0, reach = -1;\n"
	"  hits.forEach(function (g) {\n"
	"    if (g.fs >= reach) { sum += g.fn; reach = g.fs + g.fn; }\n"
	"  });\n"
	"  fg_el('matched').textContent = re === null ? ' '\n"
	"    : 'Matched: ' + (100 * sum / fg.root.fn).toFixed(2) + '%';\n"
	"  if (re !== null) fg_el('reset').style.display = '';\n"
	"}\n"
	"function fg_reset() { fg_zoom(fg.root); fg_mark(''); }\n";

void flame_svg_write(FILE *out, const FlameTree *t, const FlameSvgOpts *o)
{
	Draw d = {.out = out, .o = o, .total = t->root.value};
	d.height = PAD_TOP + PAD_BOTTOM + (t->depth + 1) * FRAME_H;
	d.scale = d.total ? (double)(o->width - 2 * PAD_X) / (double)d.total : 0;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		     "height=\"%d\" viewBox=\"0 0 %d %d\" onload=\"fg_init()\">\n",
		o->width, d.height, o->width, d.height);
	fputs("<style>\n"
	      "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
	      "#title { font-size: 17px; }\n"
	      ".btn { cursor: pointer; fill: #1a55b0; }\n"
	      "g.f { cursor: pointer; }\n"
	      "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	      "g.f text { pointer-events: none; }\n"
	      "</style>\n<script type=\"text/ecmascript\"><![CDATA[\n",
	      out);
	fputs(script, out);
	fputs("]]></script>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f4f4ee\"/>\n",
		o->width, d.height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">", o->width / 2);
	put_xml_escaped(out, o->title, strlen(o->title));
	fprintf(out, "</text>\n<text id=\"reset\" class=\"btn\" x=\"%d\" y=\"24\" "
		     "style=\"display:none\">Reset</text>\n",
		PAD_X);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\" text-anchor=\"end\">"
		     "Search (Ctrl-F)</text>\n",
		o->width - PAD_X);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", PAD_X, d.height - 10);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n",
		o->width - PAD_X, d.height - 10);
	fputs("<g id=\"frames\">\n", out);
	draw_node(&d, &t->root, 0, 0);
	fputs("</g>\n</svg>\n", out);
}
