// Read a lesson page (in projector mode, or printed) as the shapes of slides: text with its runs, tables, pictures
// and boxes, each at the place the browser laid it out. Evaluated by lessonkit/deck/browser.py in the page (never
// shipped with it); the screens themselves are the projector's own (lessonkit.projector, components/projector).
// Defines window.lessonkitDeck = {count(), screen(i, answers), widget(id, width)}; coordinates: CSS px of the window.
() => {
  'use strict';
  var doc = document, shots = 0, titleSizes = {};   // part → the type size of its heading (continued screens too)
  // never on a slide: code, hidden text, notes (they go to the slide's notes), what a theme marks `not-on-slides`
  var NEVER = 'script, style, template, noscript, select, textarea, summary, input[type=range], .speaker-notes, ' +
    '.pj-deck-title, .vh, .data-csv, .not-on-slides';
  var SKIP = NEVER;   // + buttons on screen (controls); a printed widget's buttons are its labels (a table's rows)
  var PICTURE = '.math-block, math[display=block], img, svg, canvas, video, meter, .figure-svg';
  // components read as the screen shows them: the page's own, and a self-check (its question and empty boxes fit its
  // card as on screen); every other widget is read as it prints (its key states)
  var AS_ON_SCREEN = /^(projector|search|notes|term|colormode|coursenav|selfcheck)$/;
  var INLINE = /^(inline|inline-block|inline-flex|inline-grid|inline math|math|contents|ruby)$/;

  function all(s, el) { return [].slice.call((el || doc).querySelectorAll(s)); }
  function css(el) { return getComputedStyle(el); }
  function px(v) { return parseFloat(v) || 0; }
  function seen(el) {
    if (!el.getClientRects().length) return false;
    var shut = el.parentElement && el.parentElement.closest('details:not([open])');
    if (shut && !(el.tagName === 'SUMMARY' && el.parentElement === shut)) return false;   // a closed disclosure
    var s = css(el);
    return s.visibility !== 'hidden' && +s.opacity > 0;
  }
  function rect(r) { return {x: r.left, y: r.top, w: r.width, h: r.height}; }
  function inner(el) {   // the content box
    var r = el.getBoundingClientRect(), s = css(el);
    var l = px(s.paddingLeft) + px(s.borderLeftWidth), t = px(s.paddingTop) + px(s.borderTopWidth);
    return {x: r.left + l, y: r.top + t, w: r.width - l - px(s.paddingRight) - px(s.borderRightWidth),
      h: r.height - t - px(s.paddingBottom) - px(s.borderBottomWidth)};
  }
  function color(c) {
    var m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c || '');
    if (!m || (m[4] !== undefined && +m[4] < 0.05)) return null;
    return [1, 2, 3].map(function (i) { return ('0' + Math.round(+m[i]).toString(16)).slice(-2); }).join('');
  }

  // ── text: runs of one style, paragraphs of runs ──────────────────────────────────────────────────────────────
  function style(el, extra) {   // a raised or lowered run keeps its line's size: slide programs shrink it themselves
    var s = css(el), va = s.verticalAlign, v = va === 'super' ? 1 : va === 'sub' ? -1 : 0;
    var line = /underline/.test(s.textDecorationLine) ? s.textDecorationStyle : '';
    return Object.assign({b: +s.fontWeight >= 600, i: s.fontStyle === 'italic',
      size: px(css(v && el.parentElement ? el.parentElement : el).fontSize),
      mono: /mono|menlo|consolas|courier/i.test(s.fontFamily.split(',')[0]), color: color(s.color),
      u: line === 'dotted' || line === 'dashed' ? 'dotted' : line ? 'solid' : '', v: v}, extra || {});
  }
  function push(out, t, st) {
    if (!t) return;
    var last = out[out.length - 1];
    if (last && !last.br && ['b', 'i', 'size', 'mono', 'color', 'u', 'v', 'm'].every(function (k) { return last[k] === st[k]; })) {
      last.t += t;
    } else {
      out.push(Object.assign({t: t}, st));
    }
  }
  function runsOf(nodes, out, pre, hiddenOk) {
    nodes.forEach(function (n) {
      if (n.nodeType === 3) {
        var t = pre ? n.data : n.data.replace(/[ \t\n\r\f]+/g, ' '), last = out[out.length - 1];
        if (!n.parentElement) {   // made here, not on the page (the gap between a table row's cells): the last run's
          if (last && !last.br) last.t += t;
          return;
        }
        push(out, t, style(n.parentElement));
      } else if (n.nodeType === 1) {
        if (n.matches(SKIP) || (!hiddenOk && !seen(n))) return;
        if (n.tagName === 'BR') return out.push({t: '', br: true});
        if (n.tagName.toLowerCase() === 'math') return mathRuns(n, style(n), out);
        runsOf([].slice.call(n.childNodes), out, pre || /^pre/.test(css(n).whiteSpace), hiddenOk);
      }
    });
    return out;
  }
  function trim(runs) {   // whitespace at the ends of a paragraph, and doubled at run joins, as the browser drops it
    var out = [];
    runs.forEach(function (r) {
      var prev = out[out.length - 1];
      if (!r.br && / $/.test(prev ? prev.t : ' ') && !pre(r)) r.t = r.t.replace(/^ /, '');
      if (r.t || r.br) out.push(r);
    });
    while (out.length && !out[0].br && !out[0].t.trim() && !pre(out[0])) out.shift();
    if (out.length && !pre(out[0])) out[0].t = out[0].t.replace(/^ +/, '');
    var last = out[out.length - 1];
    if (last && !last.br && !pre(last)) last.t = last.t.replace(/ +$/, '');
    return out.filter(function (r) { return r.br || r.t; });
    function pre(r) { return r.mono && /\n/.test(r.t); }
  }
  function para(el, nodes, extra) {
    var s = css(el), size = px(s.fontSize), lh = s.lineHeight === 'normal' ? size * 1.25 : px(s.lineHeight);
    var p = {runs: trim(runsOf(nodes || [].slice.call(el.childNodes), [], /^pre/.test(s.whiteSpace))),
      align: /center/.test(s.textAlign) ? 'center' : /right|end/.test(s.textAlign) ? 'right' : 'left', size: size, lh: lh};
    return Object.assign(p, extra || {});
  }

  // MathML in a line of text: its letters in italic, sub- and superscripts raised or lowered (editable text)
  var ACCENT = {'~': '\u0303', '˜': '\u0303', '^': '\u0302', 'ˆ': '\u0302', '¯': '\u0304', '‾': '\u0305',
    '→': '\u20d7', '˙': '\u0307', '¨': '\u0308', '.': '\u0307'};
  var SPACED = /^[=+−×·≈≠<>≤≥→←⇒∈∝±∼≡:]$/;
  function mathRuns(m, st, out) {
    st = Object.assign({}, st, {m: true});
    function r(t, extra) { push(out, t, Object.assign({}, st, extra)); }
    function kids(n) { return [].slice.call(n.children); }
    function many(n) { return n.textContent.trim().length > 1 && !/^(mi|mn|mo|mtext)$/.test(tag(n)); }
    function tag(n) { return n.tagName.toLowerCase(); }
    function walk(n, v) {
      var t = tag(n), c = kids(n), s = {v: v, i: false};
      if (t === 'annotation' || t === 'annotation-xml' || t === 'mphantom') return;
      if (t === 'mi') return r(n.textContent, {v: v, i: n.textContent.length === 1 && n.getAttribute('mathvariant') !== 'normal'});
      if (t === 'mo') {
        var o = n.textContent.trim();
        return r(SPACED.test(o) && n.previousElementSibling && n.nextElementSibling ? ' ' + o + ' ' : o, s);
      }
      if (t === 'mn' || t === 'mtext' || t === 'ms') return r(n.textContent, s);
      if (t === 'mspace') return r(' ', s);
      if (t === 'msub' || t === 'msup' || t === 'msubsup' || t === 'munder' || t === 'mover' || t === 'munderover') {
        var accent = (t === 'mover' || t === 'munder') && c[1] && ACCENT[c[1].textContent.trim()];
        walk(c[0], v);
        if (accent) return r(accent, s);
        var low = t === 'msub' || t === 'msubsup' || t === 'munder' || t === 'munderover';
        if (c[1]) walk(c[1], low ? -1 : 1);
        if (c[2]) walk(c[2], 1);
        return;
      }
      if (t === 'mfrac') {
        group(c[0], v);
        r('/', s);
        return group(c[1], v);
      }
      if (t === 'msqrt') { r('√', s); return groupAll(c, v); }
      if (t === 'mroot') { walk(c[1], 1); r('√', s); return group(c[0], v); }
      if (t === 'mtable') {
        return kids(n).forEach(function (row, i) {
          if (i) r('; ', s);
          kids(row).forEach(function (cell, j) { if (j) r(', ', s); c = kids(cell); c.forEach(function (x) { walk(x, v); }); });
        });
      }
      c.forEach(function (x) { walk(x, v); });
    }
    function group(n, v) { if (!n) return; if (many(n)) { r('(', {v: v, i: false}); walk(n, v); r(')', {v: v, i: false}); } else walk(n, v); }
    function groupAll(c, v) {
      if (c.length === 1) return group(c[0], v);
      r('(', {v: v, i: false});
      c.forEach(function (x) { walk(x, v); });
      r(')', {v: v, i: false});
    }
    kids(m).forEach(function (x) { walk(x, 0); });
  }

  // ── the shapes of a block ─────────────────────────────────────────────────────────────────────────────────────
  function inlineOnly(el) {
    return [].slice.call(el.childNodes).every(function (n) {
      return n.nodeType !== 1 || n.matches(SKIP) || !seen(n) || inlineNode(n);
    });
  }
  function inlineNode(n) {   // an element that is part of a line of text (inline math included; not a field)
    if (n.tagName.toLowerCase() === 'math') return n.getAttribute('display') !== 'block';
    if (n.matches('input')) return false;
    if (n.matches(PICTURE) || n.tagName === 'TABLE') return false;
    return INLINE.test(css(n).display) && inlineOnly(n);
  }
  function marks(el, out) {   // boxes inside a line of text (a swatch, a badge); not inline code: lines break elsewhere
    all('*', el).forEach(function (e) {
      if (!seen(e) || e.closest('math') || !/^inline-/.test(css(e).display) || !color(css(e).backgroundColor)) return;
      var fill = color(css(e).backgroundColor), round = px(css(e).borderTopLeftRadius) > 0;
      [].slice.call(e.getClientRects()).forEach(function (r) {
        out.push({kind: 'box', x: r.left, y: r.top, w: r.width, h: r.height, fill: fill, line: null, sides: null, round: round});
      });
    });
  }
  function boxShape(el, out) {   // a background or border worth drawing (callouts, boxes, cells of a widget)
    var s = css(el), fill = color(s.backgroundColor), r = el.getBoundingClientRect();
    var sides = ['Top', 'Right', 'Bottom', 'Left'].map(function (k) {
      var w = px(s['border' + k + 'Width']);
      return s['border' + k + 'Style'] !== 'none' && w > 0 ? {w: w, c: color(s['border' + k + 'Color'])} : null;
    });
    var even = sides.every(function (x) { return x && sides[0] && x.w === sides[0].w && x.c === sides[0].c; });
    if (!fill && !sides.some(Boolean)) return;
    if (el === doc.body || r.width < 2 || r.height < 2) return;
    out.push({kind: 'box', x: r.left, y: r.top, w: r.width, h: r.height, fill: fill,
      line: even ? sides[0] : null, sides: even ? null : sides, round: px(s.borderTopLeftRadius) > 0 || px(s.borderBottomRightRadius) > 0});
  }
  function picture(el, out) {
    var target = el.matches('.math-block') ? el.querySelector('math') || el : el, r = rect(target.getBoundingClientRect());
    if (target.tagName.toLowerCase() === 'math') r = formula(target, el);
    if (r.w < 1 || r.h < 1) return;
    target.setAttribute('data-deck-shot', ++shots);
    var x = Math.floor(r.x + scrollX), y = Math.floor(r.y + scrollY);             // in the page, for the screenshot
    var clip = {x: x, y: y, width: Math.ceil(r.x + scrollX + r.w) - x, height: Math.ceil(r.y + scrollY + r.h) - y};
    out.push(Object.assign({kind: 'picture', shot: shots, clip: clip, alt: described(el, target)}, r));
  }
  // what a picture's description says: a formula's TeX (the build writes it as the math's alttext; its MathML's text
  // would read 0.9⁹⁶ as 0.996), an image's or drawing's own text alternative, else — a drawing the page shows beside
  // its words, hidden from screen readers (a widget's bar) — the words it stands beside
  function described(el, target) {
    var math = target.tagName.toLowerCase() === 'math' ? target : null;
    var own = math ? math.getAttribute('alttext') || words(math) : el.getAttribute('aria-label') || el.getAttribute('alt');
    return own || besides(el);
  }
  function words(el) { return el ? el.textContent.replace(/\s+/g, ' ').trim() : ''; }
  function besides(el) {
    var dd = el.closest('dd'), dt = dd && dd.previousElementSibling;
    if (dd) return [words(dt && dt.tagName === 'DT' ? dt : null), words(dd)].join(' ').trim();   // a term, its value
    for (var box = el.parentElement; box && box !== doc.body; box = box.parentElement) {
      if (words(box)) return words(box);
    }
    return '';
  }
  // a display formula: as wide as what it draws (its box is the line's width), as tall as its block with padding
  function formula(math, block) {
    var rs = all('*', math).map(function (e) { return e.getBoundingClientRect(); }).filter(function (b) { return b.width; });
    var outer = (block === math ? math : block).getBoundingClientRect();
    if (!rs.length) return rect(outer);
    var l = Math.min.apply(0, rs.map(function (b) { return b.left; })), r = Math.max.apply(0, rs.map(function (b) { return b.right; }));
    var t = Math.min(outer.top, Math.min.apply(0, rs.map(function (b) { return b.top; })));
    var b = Math.max(outer.bottom, Math.max.apply(0, rs.map(function (x) { return x.bottom; })));
    l = Math.max(outer.left, l - 6);
    r = Math.min(outer.right, r + 6);
    return {x: l, y: t, w: r - l, h: b - t};
  }
  function figure(el, out) {
    var art = el.querySelector('.figure-svg'), svgs = art ? all('svg', art).filter(seen) : [];
    if (art && svgs.length) {
      var bs = svgs.map(function (s) { return s.getBoundingClientRect(); });
      var x0 = Math.min.apply(0, bs.map(function (b) { return b.left; })), y0 = Math.min.apply(0, bs.map(function (b) { return b.top; }));
      var x1 = Math.max.apply(0, bs.map(function (b) { return b.right; })), y1 = Math.max.apply(0, bs.map(function (b) { return b.bottom; }));
      out.push({kind: 'picture', figure: el.id.replace(/^fig-/, ''), alt: art.getAttribute('aria-label') || '',
        x: x0, y: y0, w: x1 - x0, h: y1 - y0});
    }
    kidsOf(el).forEach(function (c) { if (c !== art) walk(c, out); });
  }
  function list(el, out) {
    var paras = [], top = el.getBoundingClientRect(), prevBottom = null;
    (function items(l, level) {
      var n = +(l.getAttribute('start') || 1);
      kidsOf(l).forEach(function (li) {
        if (li.tagName !== 'LI' || !seen(li)) return;
        var r = li.getBoundingClientRect(), nested = kidsOf(li).filter(function (c) { return /^(UL|OL)$/.test(c.tagName); });
        var text = [].slice.call(li.childNodes).filter(function (c) { return nested.indexOf(c) < 0; });
        var p = para(li, text, {level: level, bullet: l.tagName === 'OL' ? {num: n} : {char: '•'},
          indent: r.left - top.left, before: prevBottom === null ? 0 : Math.max(0, r.top - prevBottom)});
        paras.push(p);
        prevBottom = nested.length ? nested[0].getBoundingClientRect().top : r.bottom;
        n++;
        nested.forEach(function (sub) { items(sub, level + 1); prevBottom = sub.getBoundingClientRect().bottom; });
      });
    })(el, 0);
    if (paras.length) out.push(Object.assign({kind: 'text', paras: paras}, rect(top)));
  }
  function listSimple(el) {   // bulleted or numbered items holding only text and lists
    return all('li', el).every(function (li) {
      if (css(li).display !== 'list-item' || css(li).listStyleType === 'none') return false;
      return kidsOf(li).every(function (c) { return /^(UL|OL)$/.test(c.tagName) || !seen(c) || c.matches(SKIP) ||
        inlineNode(c) || (c.tagName === 'P' && inlineOnly(c)); });
    });
  }
  function table(el, out) {
    var cap = el.querySelector(':scope>caption'), rows = all(':scope>thead>tr, :scope>tbody>tr, :scope>tr, :scope>tfoot>tr', el)
      .filter(seen);
    if (cap && seen(cap)) out.push(Object.assign({kind: 'text', paras: [para(cap)]}, inner(cap)));
    if (!rows.length) return;
    var cols = kidsOf(rows[0]).filter(seen).map(function (c) { return c.getBoundingClientRect().width; });
    var first = rows[0].getBoundingClientRect(), last = rows[rows.length - 1].getBoundingClientRect();
    out.push({kind: 'table', x: first.left, y: first.top, w: first.width, h: last.bottom - first.top, cols: cols,
      rows: rows.map(function (tr) {
        return {h: tr.getBoundingClientRect().height, cells: kidsOf(tr).filter(seen).map(function (td) {
          var s = css(td);
          return {paras: [para(td)], header: td.tagName === 'TH', fill: color(s.backgroundColor) || color(css(tr).backgroundColor),
            pad: [px(s.paddingTop), px(s.paddingRight), px(s.paddingBottom), px(s.paddingLeft)],
            sides: ['Top', 'Right', 'Bottom', 'Left'].map(function (k) {
              var w = px(s['border' + k + 'Width']);
              return s['border' + k + 'Style'] !== 'none' && w > 0 ? {w: w, c: color(s['border' + k + 'Color'])} : null;
            }), span: td.colSpan || 1};
        })};
      })});
  }
  function kidsOf(el) { return [].slice.call(el.children); }
  function walk(el, out, widgets) {
    if (el.nodeType !== 1 || el.matches(SKIP) || !seen(el) || el === heading) return;
    var kind = el.getAttribute('data-widget');
    if (widgets && kind && !AS_ON_SCREEN.test(kind)) {
      widgets.push({id: el.id, kind: kind, box: rect(el.getBoundingClientRect())});
      return out.push({kind: 'widget', id: el.id});
    }
    if (el.matches('figure.figure')) return figure(el, out);
    if (el.matches(PICTURE)) return picture(el, out);
    if (el.tagName === 'TABLE') return table(el, out);
    if (el.matches('input')) return boxShape(el, out);   // an answer box, empty
    boxShape(el, out);
    if (/^(UL|OL)$/.test(el.tagName) && listSimple(el)) return list(el, out);
    if (inlineOnly(el)) marks(el, out);
    if (inlineOnly(el)) {
      var p = para(el);
      if (p.runs.length) out.push(Object.assign({kind: 'text', paras: [p]}, inner(el)));
      return;
    }
    var run = [];   // text beside blocks in one container: each stretch of it its own paragraph
    function flush() {
      if (!run.length) return;
      var range = doc.createRange();
      range.setStartBefore(run[0]);
      range.setEndAfter(run[run.length - 1]);
      var p = para(el, run);
      if (p.runs.length) out.push(Object.assign({kind: 'text', paras: [p]}, rect(range.getBoundingClientRect())));
      run = [];
    }
    [].slice.call(el.childNodes).forEach(function (n) {
      var block = n.nodeType === 1 && !n.matches(SKIP) && !inlineNode(n);
      if (!block) { if (n.nodeType === 3 || n.nodeType === 1) run.push(n); return; }
      flush();
      walk(n, out, widgets);
    });
    flush();
  }
  var heading = null;

  // ── notes (hidden: read from the markup, not the layout) ──────────────────────────────────────────────────────
  function notesParas(el, out) {
    kidsOf(el).forEach(function (c) {
      if (c.matches('script, style, template, .vh')) return;
      if (/^(UL|OL)$/.test(c.tagName)) {
        return kidsOf(c).forEach(function (li, i) {
          out.push({runs: trim(runsOf([].slice.call(li.childNodes), [], false, true)),
            bullet: c.tagName === 'OL' ? {num: i + 1} : {char: '•'}});
        });
      }
      if (/^(P|H\d|PRE|BLOCKQUOTE|LI|DT|DD|CAPTION|FIGCAPTION)$/.test(c.tagName) || c.matches('.math-block')) {
        return out.push({runs: trim(runsOf([].slice.call(c.childNodes), [], c.tagName === 'PRE', true))});
      }
      if (c.tagName === 'TR') {
        return out.push({runs: trim(runsOf(kidsOf(c).reduce(function (a, td) {
          return a.concat([].slice.call(td.childNodes), [doc.createTextNode('  ')]);
        }, []), [], false, true))});
      }
      notesParas(c, out);
    });
    return out;
  }

  window.lessonkitDeck = {
    count: function () { return lessonkit.projector.enter(); },
    // the shapes of screen i as the projector shows it; widgets are placeholders, read printed (widget())
    screen: function (i, answers) {
      SKIP = NEVER + ', button, .js-only';   // controls and what only works with them (a self-check's status)
      lessonkit.projector.show(i);
      var s = lessonkit.projector.screen(i), out = [], widgets = [];
      heading = s.heading;
      s.blocks.forEach(function (b) { walk(b, out, widgets); });
      heading = null;
      var notes = [];
      s.notes.forEach(function (n) { notesParas(n, notes); });
      var keys = [];
      if (answers) {
        s.blocks.forEach(function (b) {
          all('details.answer .answer-body', b).concat(b.matches('details.answer') ? all('.answer-body', b) : [])
            .forEach(function (a) { notesParas(a, keys); });
        });
      }
      var body = getComputedStyle(doc.body);
      return {title: s.title, part: s.part, n: s.n, shapes: out, widgets: widgets, notes: notes, answers: keys,
        headingSize: titleSizes[s.part] = s.heading ? px(css(s.heading).fontSize) : titleSizes[s.part] || null,
        background: color(body.backgroundColor) || 'ffffff', fg: color(body.color), w: innerWidth, h: innerHeight};
    },
    // a widget as printed (the handout's type), laid out `width` px wide: its shapes relative to its box
    widget: function (id, width) {
      var el = doc.getElementById(id);
      if (!el) return null;
      el.style.width = width + 'px';
      el.style.boxSizing = 'border-box';
      all('.not-on-slides', el).forEach(function (e) { e.style.display = 'none'; });   // and it takes no room
      el.scrollIntoView();
      SKIP = NEVER;
      var out = [];
      heading = null;
      walk(el, out, null);
      var r = el.getBoundingClientRect();
      out.forEach(function (sh) { sh.x -= r.left; sh.y -= r.top; });
      return {w: r.width, h: r.height, shapes: out};
    }
  };
}
