// search: finds a query in the index the build made (lessonkit/features/search.py) as one types. Folding, ranking
// and snippets are written here only; what counts as text (skipped tags, classes, attributes, word breaks, spaces)
// comes from the build in data.rules, so a lesson page reads its own sections exactly as the build reads HTML.
// No requests but one: on the index page, the course's index script (data.load), added the first time someone
// searches. Text goes into the page only through textContent.
lessonkit.widget('search', function (root, data) {
  'use strict';
  if (!data || !data.rules) return;
  var input = root.querySelector('[data-role="input"]'), list = root.querySelector('[data-role="results"]');
  var status = root.querySelector('[data-role="status"]');
  var allWrap = root.querySelector('[data-role="all-wrap"]'), allLink = root.querySelector('[data-role="all"]');
  if (!input || !list || !status) return;
  var site = data.scope !== 'lesson', rules = data.rules;
  var words = status.dataset;  // the template's words (theme i18n): none, some, found, whereLesson, loading, unavailable
  var fill = lessonkit.fill;
  function set(items) {
    var s = {};
    items.forEach(function (k) { s[k] = true; });
    return s;
  }

  // ── folding: one UTF-16 unit at a time, so folded text is exactly as long as the text: NFKC, lower case, kept if
  // it would not stay one unit; a space of the rules becomes ' '. Units that fold to themselves are left alone:
  // ASCII but spaces and capitals, and the Chinese characters of the rules.
  var CLASS = '[' + rules.spaces + ']';
  var SPACES = new RegExp(CLASS + '+', 'g'), SPACE = new RegExp('^' + CLASS + '$');
  var FOLD = {}, NOT_PLAIN = new RegExp('[^\\x21-\\x40\\x5b-\\x7f' + rules.han + ']', 'g');
  function fold1(c) {
    var k = FOLD[c];
    if (k === undefined) {
      k = (c.normalize ? c.normalize('NFKC') : c).toLowerCase();
      if (k.length !== 1) k = c;
      if (SPACE.test(k)) k = ' ';
      FOLD[c] = k;
    }
    return k;
  }
  function fold(s) { return s.replace(NOT_PLAIN, fold1); }
  function collapse(s) { return s.replace(SPACES, ' ').replace(/^ | $/g, ''); }
  function terms(q) {   // the folded query split at spaces, longest first, duplicates and terms inside others dropped
    var seen = {}, found = fold(collapse(q)).split(' ').filter(function (w) {
      if (!w || seen[w]) return false;
      seen[w] = true;
      return true;
    });
    found.sort(function (a, b) { return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0); });
    var kept = [];
    found.forEach(function (w) {
      if (!kept.some(function (k) { return k.indexOf(w) >= 0; })) kept.push(w);
    });
    return kept;
  }

  // ── a section whose text is null is on this page: the text of its element by the rules (its labelling heading
  // is its title, searched apart)
  var skipTags = set(rules.skip_tags), breaks = set(rules.breaks), skipClasses = rules.skip_classes;
  var skipAttributes = Object.keys(rules.skip_attributes);
  function skipped(e, tag) {
    if (skipTags[tag]) return true;
    var cl = e.classList;
    if (cl && skipClasses.some(function (k) { return cl.contains(k); })) return true;
    return skipAttributes.some(function (name) {
      var v = e.getAttribute(name), want = rules.skip_attributes[name];
      return v !== null && (want === null || v === want);
    });
  }
  function visible(node, out, labels) {
    for (var c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { out.push(c.nodeValue); continue; }
      if (c.nodeType !== 1) continue;
      var tag = c.localName.toLowerCase();
      if (skipped(c, tag) || (c.id && labels[c.id])) continue;
      var block = breaks[tag];
      if (block) out.push(' ');
      visible(c, out, labels);
      if (block) out.push(' ');
    }
    return out;
  }
  function pageText(id) {
    var e = document.getElementById(id);
    return e ? collapse(visible(e, [], set((e.getAttribute('aria-labelledby') || '').split(' '))).join('')) : '';
  }

  // ── the index: carried (a lesson page) or loaded once (the index page)
  var keys = null;   // [folded title, folded text] per section, made at the first search
  function prepare() {
    data.sections.forEach(function (s) { if (s[3] === null) s[3] = pageText(s[1]); });
    keys = data.sections.map(function (s) { return [fold(s[2]), fold(s[3])]; });
  }
  var loading = null;
  function load() {   // a promise of the sections; from disk without integrity (it needs CORS), the policy allows file:
    if (data.sections) return Promise.resolve();
    if (!loading) loading = new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = data.load.src;
      if (location.protocol !== 'file:') s.integrity = data.load.integrity;
      s.onload = function () {
        var index = window.lessonkit.searchIndex;
        if (!index || index.v !== data.v) { reject(new Error('search index: not version ' + data.v)); return; }
        data.lessons = index.lessons;
        data.sections = index.sections;
        resolve();
      };
      s.onerror = function () { reject(new Error('search index: cannot load ' + data.load.src)); };
      document.head.appendChild(s);
    });
    return loading;
  }

  // ── the search
  function ranges(hay, found) {
    var spans = [], merged = [];
    found.forEach(function (w) {
      for (var i = hay.indexOf(w); i >= 0; i = hay.indexOf(w, i + w.length)) spans.push([i, i + w.length]);
    });
    spans.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    spans.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    });
    return merged;
  }
  function count(hay, w) {
    var n = 0;
    for (var i = hay.indexOf(w); i >= 0; i = hay.indexOf(w, i + w.length)) n++;
    return n;
  }
  // every section where each term occurs (in its text or its title; a lesson's title is the title of its top),
  // best first: more terms in the title, then more matches, then reading order; with a window of the text
  function search(query) {
    var found = terms(query), hits = [];
    if (!found.length || !data.sections) return hits;
    if (!keys) prepare();
    for (var n = 0; n < keys.length; n++) {
      var k = keys[n], ft = k[0], fx = k[1], inTitle = 0, ok = true;
      for (var j = 0; j < found.length; j++) {
        var w = found[j], t = ft.indexOf(w) >= 0;
        if (!t && fx.indexOf(w) < 0) { ok = false; break; }
        if (t) inTitle++;
      }
      if (!ok) continue;
      var text = data.sections[n][3], marks = ranges(fx, found), start = 0, end, c = marks.length;
      if (marks.length) {
        start = Math.max(0, marks[0][0] - data.before);
        end = Math.min(text.length, start + data.length);
        start = Math.max(0, Math.min(start, end - data.length));
      }
      end = Math.min(text.length, start + data.length);
      if (start > 0 && /[\udc00-\udfff]/.test(text.charAt(start))) start--;          // never split a surrogate pair
      if (end < text.length && /[\udc00-\udfff]/.test(text.charAt(end))) end++;
      found.forEach(function (w) { c += count(ft, w); });
      hits.push({n: n, inTitle: inTitle, count: c, titleMarks: ranges(ft, found), start: start, end: end,
                 marks: marks.filter(function (r) { return r[0] < end && r[1] > start; }).map(function (r) {
                   return [Math.max(r[0], start) - start, Math.min(r[1], end) - start];
                 })});
    }
    hits.sort(function (a, b) { return b.inTitle - a.inTitle || b.count - a.count || a.n - b.n; });
    return hits;
  }

  // ── showing
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function marked(parent, text, marks) {
    var at = 0;
    marks.forEach(function (r) {
      if (r[0] > at) parent.appendChild(document.createTextNode(text.slice(at, r[0])));
      parent.appendChild(el('mark', '', text.slice(r[0], r[1])));
      at = r[1];
    });
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
    return parent;
  }
  function href(s) {
    var url = data.lessons[s[0]][1];
    return s[1] ? url + '#' + s[1] : (url || '#');
  }
  function links() { return Array.prototype.slice.call(list.querySelectorAll('a')); }
  function empty() { while (list.firstChild) list.removeChild(list.firstChild); }

  function show(trimmed) {
    var hits = search(trimmed), shown = hits.slice(0, data.max);
    empty();
    shown.forEach(function (h) {
      var s = data.sections[h.n], text = s[3], a = el('a'), li = el('li', 'search-hit');
      var where = el('span', 'search-where');
      a.href = href(s);
      if (site && s[1]) where.appendChild(el('span', 'search-lesson', data.lessons[s[0]][0]));
      where.appendChild(marked(el('span', 'search-section'), s[2], h.titleMarks));
      a.appendChild(where);
      if (text) {
        var snip = el('span', 'search-snippet');
        if (h.start > 0) snip.appendChild(document.createTextNode('…'));
        marked(snip, text.slice(h.start, h.end), h.marks);
        if (h.end < text.length) snip.appendChild(document.createTextNode('…'));
        a.appendChild(snip);
      }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = !shown.length;
    var counts = {where: site ? '' : words.whereLesson || '', q: trimmed, n: hits.length, shown: shown.length};
    status.textContent = fill(!hits.length ? words.none : hits.length > shown.length ? words.some : words.found, counts);
  }

  var last = null;
  function update() {
    var trimmed = collapse(input.value);
    if (trimmed === last) return;
    last = trimmed;
    if (allLink) {
      allLink.href = data.all + (trimmed ? '?q=' + encodeURIComponent(trimmed) : '');
      if (!allLink.hasAttribute('data-plain')) allLink.setAttribute('data-plain', allLink.textContent);
      allLink.textContent = trimmed ? fill(allLink.getAttribute('data-for'), {q: trimmed}) : allLink.getAttribute('data-plain');
    }
    if (allWrap) allWrap.hidden = !trimmed;
    if (!trimmed) {
      empty();
      list.hidden = true;
      status.textContent = '';
      return;
    }
    if (data.sections) { show(trimmed); return; }
    empty();
    list.hidden = true;
    status.textContent = words.loading || '';
    load().then(function () {
      last = null;
      update();
    }, function (err) {
      status.textContent = fill(words.unavailable, {file: data.load.src.split('?')[0]});
      console.warn(err.message);
    });
  }
  function clear() {
    input.value = '';
    update();
    input.focus();
  }

  input.addEventListener('input', function (e) { if (!e.isComposing) update(); });   // not mid-IME (pinyin)
  input.addEventListener('compositionend', update);
  input.addEventListener('search', update);          // the clear (×) button of type=search
  input.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown') {
      var a = links();
      if (a.length) { e.preventDefault(); a[0].focus(); }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      clear();
    }
  });
  list.addEventListener('keydown', function (e) {
    var a = links(), i = a.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      var j = i + (e.key === 'ArrowDown' ? 1 : -1);
      if (j < 0) input.focus();
      else a[Math.min(j, a.length - 1)].focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      a[e.key === 'Home' ? 0 : a.length - 1].focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      clear();
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      input.focus();                                   // typing goes on into the box
    }
  });

  var q = null;
  if (site && window.URLSearchParams) {
    try { q = new URLSearchParams(window.location.search).get('q'); } catch (err) { q = null; }
  }
  if (q) {
    input.value = q;
    update();
    input.focus();
  } else if (input.value) {
    update();                                          // a value the browser restored on "back"
  }

  // for tests and benchmarks, no DOM: load() → a promise of the index; hits(query) → every hit, best first, as
  // {href, lesson, section, snippet, marks, titleMarks, inTitle, count} (snippet without the … added when cut)
  root.lessonkitSearch = {
    load: load,
    hits: function (query) {
      return search(query).map(function (h) {
        var s = data.sections[h.n];
        return {href: href(s), lesson: data.lessons[s[0]][0], section: s[2], snippet: (s[3] || '').slice(h.start, h.end),
                marks: h.marks, titleMarks: h.titleMarks, inTitle: h.inTitle, count: h.count};
      });
    }
  };
});
