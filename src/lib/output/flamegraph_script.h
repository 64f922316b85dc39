/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The script inside every flame graph (flamegraph_svg.c only): hover shows
 * a frame's exact count and share, a click zooms into it (its ancestors
 * stay, dimmed; "Reset zoom" or Escape goes back), Search (or Ctrl-F)
 * marks the frames a regular expression matches and their share. The URL
 * fragment #f=ID&s=REGEX zooms and searches on load. It reads every number
 * from the frames' attributes (data-x: offset, data-n: count, data-p: the
 * parent's id) and sets data-js="ready" on the document once it ran.
 * No double quote, no "]]>": it sits in a C string and in a CDATA section.
 */
#ifndef WD_FLAMEGRAPH_SCRIPT_H
#define WD_FLAMEGRAPH_SCRIPT_H

#define WD_FLAME_SCRIPT \
"(function () {\n" \
"'use strict';\n" \
"var svg = document.documentElement;\n" \
"var W = Number(svg.getAttribute('width')), PAD = Number(svg.getAttribute('data-pad'));\n" \
"var CW = Number(svg.getAttribute('data-char-width'));\n" \
"var total = Number(svg.getAttribute('data-total'));\n" \
"var unit = svg.getAttribute('data-unit'), unitOne = svg.getAttribute('data-unit-one');\n" \
"var frames = Array.prototype.slice.call(svg.querySelectorAll('g.fr'));\n" \
"var details = document.getElementById('details'), hint = details.textContent;\n" \
"var reset = document.getElementById('reset'), matched = document.getElementById('matched');\n" \
"var byId = {};\n" \
"\n" \
"frames.forEach(function (g) { byId[g.id] = g; });\n" \
"function name(g) { return g.querySelector('title').textContent.split('\\n')[0]; }\n" \
"function num(g, a) { return Number(g.getAttribute(a)); }\n" \
"function parent(g) { return byId[g.getAttribute('data-p')]; }\n" \
"function share(n) { return total > 0 ? (100 * n / total).toFixed(2) : '0.00'; }\n" \
"\n" \
"/* The name cut to its box, as the writer cuts it. */\n" \
"function fit(g) {\n" \
"\tvar r = g.querySelector('rect'), t = g.querySelector('text'), s = name(g);\n" \
"\tvar room = Math.floor((Number(r.getAttribute('width')) - 6) / CW);\n" \
"\tt.setAttribute('x', (Number(r.getAttribute('x')) + 3).toFixed(3));\n" \
"\tt.textContent = s.length <= room ? s : room >= 3 ? s.slice(0, room - 2) + '..' : '';\n" \
"}\n" \
"\n" \
"function place(g, x, w) {\n" \
"\tvar r = g.querySelector('rect');\n" \
"\tr.setAttribute('x', x.toFixed(3));\n" \
"\tr.setAttribute('width', w.toFixed(3));\n" \
"\tfit(g);\n" \
"}\n" \
"\n" \
"function describe(g) {\n" \
"\tvar n = g.getAttribute('data-n');\n" \
"\tdetails.textContent = name(g) + ': ' + n + ' ' + (n === '1' ? unitOne : unit) + ', ' +\n" \
"\t\tshare(Number(n)) + '% of all';\n" \
"}\n" \
"\n" \
"/* The target over the whole width, its ancestors dimmed below, the rest hidden. */\n" \
"function zoom(target) {\n" \
"\tvar x0 = num(target, 'data-x'), n0 = num(target, 'data-n');\n" \
"\tvar scale = (W - 2 * PAD) / n0, up = {};\n" \
"\tfor (var p = target; p; p = parent(p))\n" \
"\t\tup[p.id] = true;\n" \
"\tframes.forEach(function (g) {\n" \
"\t\tvar x = num(g, 'data-x'), n = num(g, 'data-n');\n" \
"\t\tg.classList.remove('hide', 'parent');\n" \
"\t\tif (up[g.id]) {\n" \
"\t\t\tplace(g, PAD, W - 2 * PAD);\n" \
"\t\t\tif (g !== target)\n" \
"\t\t\t\tg.classList.add('parent');\n" \
"\t\t} else if (x >= x0 && x + n <= x0 + n0) {\n" \
"\t\t\tplace(g, PAD + (x - x0) * scale, n * scale);\n" \
"\t\t} else {\n" \
"\t\t\tg.classList.add('hide');\n" \
"\t\t}\n" \
"\t});\n" \
"\treset.setAttribute('visibility', target === frames[0] ? 'hidden' : 'visible');\n" \
"\tsvg.setAttribute('data-zoom', target.id);\n" \
"}\n" \
"\n" \
"/* Frames whose name re matches, marked; their share, nested matches counted once. */\n" \
"function search(re) {\n" \
"\tvar hits = {}, sum = 0;\n" \
"\tframes.forEach(function (g) {\n" \
"\t\tvar r = g.querySelector('rect');\n" \
"\t\tif (!r.hasAttribute('data-fill'))\n" \
"\t\t\tr.setAttribute('data-fill', r.getAttribute('fill'));\n" \
"\t\thits[g.id] = re !== null && re.test(name(g));\n" \
"\t\tr.setAttribute('fill', hits[g.id] ? 'rgb(230,0,230)' : r.getAttribute('data-fill'));\n" \
"\t});\n" \
"\tframes.forEach(function (g) {\n" \
"\t\tif (!hits[g.id])\n" \
"\t\t\treturn;\n" \
"\t\tfor (var p = parent(g); p; p = parent(p))\n" \
"\t\t\tif (hits[p.id])\n" \
"\t\t\t\treturn;\n" \
"\t\tsum += num(g, 'data-n');\n" \
"\t});\n" \
"\tmatched.textContent = re === null ? '' : 'Matched: ' + share(sum) + '% of all';\n" \
"}\n" \
"\n" \
"function ask() {\n" \
"\tvar s = window.prompt('Frames to mark (a regular expression; empty: none)', '');\n" \
"\tif (s === null)\n" \
"\t\treturn;\n" \
"\ttry {\n" \
"\t\tsearch(s ? new RegExp(s) : null);\n" \
"\t} catch (e) {\n" \
"\t\tmatched.textContent = 'Not a regular expression: ' + e.message;\n" \
"\t}\n" \
"}\n" \
"\n" \
"function frameOf(e) { return e.target.closest ? e.target.closest('g.fr') : null; }\n" \
"\n" \
"document.getElementById('search').addEventListener('click', ask);\n" \
"if (frames.length) {\n" \
"\treset.addEventListener('click', function () { zoom(frames[0]); });\n" \
"\tsvg.addEventListener('click', function (e) { var g = frameOf(e); if (g) zoom(g); });\n" \
"\tsvg.addEventListener('mouseover', function (e) { var g = frameOf(e); if (g) describe(g); });\n" \
"\tsvg.addEventListener('mouseout', function (e) {\n" \
"\t\tif (frameOf(e))\n" \
"\t\t\tdetails.textContent = hint;\n" \
"\t});\n" \
"}\n" \
"document.addEventListener('keydown', function (e) {\n" \
"\tif ((e.ctrlKey || e.metaKey) && e.key === 'f') {\n" \
"\t\te.preventDefault();\n" \
"\t\task();\n" \
"\t} else if (e.key === 'Escape' && frames.length) {\n" \
"\t\tzoom(frames[0]);\n" \
"\t}\n" \
"});\n" \
"\n" \
"var q = new URLSearchParams(window.location.hash.slice(1));\n" \
"if (q.get('f') && byId[q.get('f')])\n" \
"\tzoom(byId[q.get('f')]);\n" \
"if (q.get('s')) {\n" \
"\ttry {\n" \
"\t\tsearch(new RegExp(q.get('s')));\n" \
"\t} catch (e) {\n" \
"\t\tmatched.textContent = 'Not a regular expression: ' + e.message;\n" \
"\t}\n" \
"}\n" \
"svg.setAttribute('data-js', 'ready');\n" \
"})();\n"

#endif /* WD_FLAMEGRAPH_SCRIPT_H */
