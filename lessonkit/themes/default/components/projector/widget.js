// Projector: one screen at a time in large type. Parts = header, question, sections, challenges; each part's children
// are measured and dealt into screens that fit. Hash #present-<part>-<n>. Screen-only CSS: print ignores it.
// Presenter view (key S or its button): the same page in a second window (#presenter), opened from this one and kept
// in step with it by postMessage both ways (works from file:// too): the current screen, the next one, the screen's
// speaker notes (lessonkit/features/notes.py), its number and a clock. The slides (`build.py slides`) drive
// lessonkit.projector: the screens as dealt here, and `deck()`, the whole lesson laid out one screen per printed page.
lessonkit.widget('projector', function (root) {
  'use strict';
  var doc = document, html = doc.documentElement, win = window, L = root.closest('.lesson');
  var words = root.dataset;  // the template's words (theme i18n): prev, next, exit, continued, count, question, presenter…
  if (!L || html.hasAttribute('data-projector')) return;
  html.setAttribute('data-projector', '');
  var NOTES = '.speaker-notes', PRESENTER = '#presenter', MSG = 'lessonkit-projector';
  var TEXT = 'input, textarea, select, [contenteditable]',
    OWN = '[role=slider], [role=tab], [role=radio], [role=spinbutton], [role=listbox], [role=grid], [role=menu]';
  function all(s, el) { return [].slice.call((el || doc).querySelectorAll(s)); }
  function kids(el) { return [].slice.call(el.children); }
  function txt(el, d) { return el ? el.textContent.replace(/\s+/g, ' ').trim() : d; }
  function box(el) { return el.getBoundingClientRect(); }
  function sized(el) { var r = box(el); return r.width || r.height; }
  function heading(el) { return /^H\d$/.test(el.tagName); }
  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function numbered(word, i, n) { return lessonkit.fill(word || '{i} / {n}', {i: i, n: n}); }  // "screen i of n"

  var parts = [], blocks = [], keys = {};
  function part(key, el, bs, focus, title) {
    if (!bs.length) return;
    while (keys[key]) key += '~';
    keys[key] = 1;
    el.classList.add('pj-box');
    bs.forEach(function (b) { b.classList.add('pj-block'); blocks.push(b); });
    parts.push({key: key, box: el, blocks: bs, focus: focus, title: title});
  }
  var head = L.querySelector('.lesson-header'), q = head && head.querySelector(':scope>.question-box');
  if (head) part('objectives', head, kids(head).filter(function (c) { return c !== q; }), head, txt(head.querySelector('h1'), ''));
  if (q) part('question', head, [q], q, txt(q.querySelector('h2'), words.question || ''));
  all(':scope>section.lesson-section, :scope>section.challenges', L).forEach(function (s) {
    part(s.id, s, kids(s), s, txt(s.querySelector('h2'), ''));
  });
  if (!parts.length) return;
  if (location.hash === PRESENTER) return presenterWindow();

  var toggle = root.querySelector('.pj-toggle'), bar = el('div', 'pj-bar');
  bar.innerHTML = '<span class="pj-title"></span><button type="button" class="pj-step" aria-keyshortcuts="ArrowLeft PageUp"></button>' +
    '<span class="pj-count"><span aria-hidden="true"></span><span class="vh"></span></span>' +
    '<button type="button" class="pj-step" aria-keyshortcuts="ArrowRight PageDown Space"></button>' +
    '<button type="button" class="pj-presenter-open" aria-keyshortcuts="S"></button><span class="pj-esc" aria-hidden="true"></span>';
  root.appendChild(bar);
  var title = bar.firstChild, steps = all('.pj-step', bar), count = all('.pj-count span', bar);
  var opener = bar.querySelector('.pj-presenter-open');
  steps[0].textContent = words.prev || '‹';
  steps[1].textContent = words.next || '›';
  opener.textContent = words.presenter || 'S';
  bar.lastChild.textContent = words.exit || 'Esc';
  toggle.setAttribute('aria-keyshortcuts', 'P');

  var screens = [], cur = 0, on = false, sizes = new Map(), timer = 0;
  var watch = win.ResizeObserver && new ResizeObserver(function (es) {
    var grown = es.map(function (e) { return e.target; }).filter(function (b) {
      return Math.abs(box(b).height - sizes.get(b)) > 2;
    })[0];
    if (on && grown && !timer) timer = requestAnimationFrame(function () { timer = 0; if (on) redo(grown); });
  });

  // lay every block out as on a projector, shorten or shrink what cannot fit, deal each part's blocks into screens
  function layout() {
    html.classList.add('lk-measure');
    blocks.forEach(function (b) { b.style.removeProperty('--pj-zoom'); b.style.removeProperty('--pj-svg'); });
    var main = L.closest('main') || doc.body;
    var room = innerHeight - box(root).height - parseFloat(getComputedStyle(main).paddingTop) - 8;
    blocks.forEach(function (b) {
      var h = box(b).height, svg = all('.figure-svg svg', b).map(box).sort(function (x, y) { return y.height - x.height; })[0];
      if (h > room && svg && svg.height > room * 0.3) {   // the drawing gives up what it can (a third stays)
        b.style.setProperty('--pj-svg', Math.floor(Math.max(svg.height - (h - room), room * 0.3)) + 'px');
        h = box(b).height;
      }
      if (h > room) b.style.setProperty('--pj-zoom', Math.max(0.5, Math.floor(room / h * 100) / 100));
    });
    screens = [];
    parts.forEach(function (p) {
      var bs = [], top = 0, n = 0;
      p.blocks.forEach(function (b) {
        var r = box(b), carry = [];
        if (bs.length && (r.width || r.height) && r.bottom - top > room) {
          carry = bs.splice(trailingHeading(bs));   // a heading goes with what follows it (and notes after it)
          screens.push({part: p, n: ++n, blocks: bs});
          bs = carry;
        }
        if (!bs.length) top = r.top;
        bs.push(b);
        if (carry.length) top = box(carry[0]).top;
      });
      screens.push({part: p, n: ++n, blocks: bs});
    });
    blocks.forEach(function (b) { sizes.set(b, box(b).height); });
    html.classList.remove('lk-measure');
  }
  // where the run of headings (and unseen blocks: notes) closing a screen starts; the length when there is none
  function trailingHeading(bs) {
    var k = bs.length, first = bs.length;
    while (k > 1 && (heading(bs[k - 1]) || !sized(bs[k - 1]))) {
      k--;
      if (heading(bs[k])) first = k;
    }
    return first;
  }
  function screenOf(el) {
    for (var i = 0; i < screens.length; i++) {
      if (screens[i].blocks.some(function (b) { return b.contains(el); })) return i;
    }
    return -1;
  }
  function screenTitle(s) { return s.part.title + (s.n > 1 ? words.continued || '' : ''); }
  function notesOf(s) {
    return s.blocks.reduce(function (found, b) { return found.concat(b.matches(NOTES) ? [b] : all(NOTES, b)); }, []);
  }
  function setHash(h) {
    if (location.hash !== h) history.replaceState(history.state, '', h || location.pathname + location.search);
  }
  function clear() {
    all('.pj-on', L).forEach(function (e) { e.classList.remove('pj-on', 'pj-first', 'pj-last'); });
    if (watch) watch.disconnect();
  }
  function focus(p) {
    if (!p.focus.hasAttribute('tabindex')) p.focus.setAttribute('tabindex', '-1');
    p.focus.focus({preventScroll: true});
  }
  function show(i, stay) {
    cur = i = Math.max(0, Math.min(screens.length - 1, i));
    var s = screens[i], bs = s.blocks, of = screens.length;
    clear();
    s.part.box.classList.add('pj-on');
    bs.forEach(function (b) { b.classList.add('pj-on'); if (watch) watch.observe(b); });
    bs[0].classList.add('pj-first');
    bs[bs.length - 1].classList.add('pj-last');
    scrollTo(0, 0);
    title.textContent = screenTitle(s);
    count[0].textContent = i + 1 + ' / ' + of;
    count[1].textContent = numbered(words.count, i + 1, of);
    steps[0].disabled = !i;
    steps[1].disabled = i === of - 1;
    root.setAttribute('data-screen', i + 1);
    setHash('#present-' + s.part.key + '-' + s.n);
    if (!stay) focus(s.part);
    tell();
  }
  function redo(anchor) {
    layout();
    show(Math.max(0, screenOf(anchor || screens[cur].blocks[0])), true);
  }
  function enter(key, n) {
    var at = blocks.filter(function (b) { var r = box(b); return (r.width || r.height) && r.bottom > 1; })[0];
    if (!on) {
      on = true;
      html.classList.add('lk-projecting');
      toggle.setAttribute('aria-pressed', 'true');
      all('details.answer[open]').forEach(function (d) { d.open = false; });
    }
    layout();
    var i = screenOf(at || blocks[0]);
    screens.forEach(function (s, j) { if (s.part.key === key && (s.n <= n || s.n === 1)) i = j; });
    show(i);
    if (lessonkit.refresh) lessonkit.refresh();   // boxes that now overflow sideways become keyboard-scrollable
  }
  function leave() {
    var s = screens[cur], b = s.part.box;
    on = false;
    clear();
    html.classList.remove('lk-projecting');
    toggle.setAttribute('aria-pressed', 'false');
    setHash(b !== head ? '#' + b.id : '');
    if (b === head && s.n === 1) scrollTo(0, 0); else s.blocks[0].scrollIntoView();
    focus(s.part);
    if (lessonkit.refresh) lessonkit.refresh();
    tell();
  }
  function fromHash() {
    var m = /^#present-(.+)-(\d+)$/.exec(location.hash);
    if (m) enter(decodeURIComponent(m[1]), +m[2]);
    return m;
  }

  // ── the presenter window: opened from here, told every screen change, obeys its clicker ──────────────────────
  var peer = null;
  function openPresenter() {
    if (!on) enter();
    var w = win.open(location.pathname + location.search + PRESENTER, 'lessonkit-presenter', 'popup,width=1200,height=760');
    if (w) { peer = w; w.focus(); }
  }
  function tell() {
    if (!peer || peer.closed) return;
    peer.postMessage({kind: MSG, type: 'state', on: on, cur: cur, w: innerWidth, h: innerHeight,
      rem: parseFloat(getComputedStyle(html).fontSize),
      screens: screens.map(function (s) {
        return {title: screenTitle(s), blocks: s.blocks.map(function (b) { return blocks.indexOf(b); })};
      })}, '*');
  }
  addEventListener('message', function (e) {
    var m = e.data;
    if (!m || m.kind !== MSG || !e.source || (e.source !== peer && e.source.opener !== win)) return;
    peer = e.source;
    if (m.type === 'go' && on) show(m.to, true);
    else tell();
  });

  toggle.addEventListener('click', function () { if (on) leave(); else enter(); });
  steps.forEach(function (b, j) { b.addEventListener('click', function () { show(cur + j * 2 - 1); }); });
  opener.addEventListener('click', openPresenter);
  doc.addEventListener('keydown', function (e) {
    var k = e.key, t = e.target.closest ? e.target : html;
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || t.closest(TEXT)) return;
    if (/^s$/i.test(k)) { e.preventDefault(); return openPresenter(); }
    var move = stepFor(e, on);
    if (!move) return;
    e.preventDefault();
    if (move === 'p') { if (on) leave(); else enter(); } else show(cur + move);
  });
  addEventListener('hashchange', function () {
    if (fromHash() || !on) return;
    var t = doc.getElementById(decodeURIComponent(location.hash.slice(1))), i = t ? screenOf(t) : -1;
    show(i < 0 ? cur : i, i < 0);
  });
  addEventListener('resize', function () {
    if (on && !timer) timer = requestAnimationFrame(function () { timer = 0; if (on) redo(); });
  });

  // ── for the slides (lessonkit/deck): the screens as dealt here, and the lesson laid out for printing them ──────
  lessonkit.projector = {
    enter: function () { if (!on) enter(); return screens.length; },
    leave: function () { if (on) leave(); },
    show: function (i) { show(i, true); },
    screen: function (i) {
      var s = screens[i], b = s.blocks[0];
      return {title: screenTitle(s), part: s.part.key, n: s.n, blocks: s.blocks.slice(), notes: notesOf(s),
        heading: s.n > 1 ? null : heading(b) ? b : b.querySelector(':scope>h2')};   // what the title stands for
    },
    deck: deck
  };
  // One printed page per screen, in screen media at the window's size: every block shown, a page break before each
  // screen, a continued screen's title on top; `answers`: the teacher's edition, answers opened (dealt again, as on
  // screen when one is opened) and each screen's notes on a page after it. Type keeps this window's size.
  function deck(answers) {
    enter();   // answers close on entering
    if (answers) {
      all('details.answer').forEach(function (d) { d.open = true; });
      layout();
    }
    var rem = getComputedStyle(html).fontSize;
    clear();
    html.style.fontSize = rem;
    html.classList.add('lk-measure', 'lk-deck');
    screens.forEach(function (s, i) {
      var first = s.blocks[0];
      first.classList.add('pj-first');
      s.blocks[s.blocks.length - 1].classList.add('pj-last');
      if (s.n > 1) {
        first = el('p', 'pj-deck-title', screenTitle(s));
        first.setAttribute('aria-hidden', 'true');
        s.blocks[0].before(first);
      }
      if (i) first.classList.add('pj-page');
      var notes = notesOf(s);
      if (!answers || !notes.length) return;
      var page = el('div', 'pj-page pj-notes-page');
      page.appendChild(el('p', 'pj-deck-title', numbered(words.presenterNotesOf, i + 1, screens.length) + ' · ' + screenTitle(s)));
      notes.forEach(function (n) { page.appendChild(notesCopy(n)); });
      s.blocks[s.blocks.length - 1].after(page);
    });
    return screens.length;
  }
  fromHash();

  // keys of the projector and the presenter window: ±1, ±1e9 (first, last), 'p' (projector on/off), or 0
  function stepFor(e, projecting) {
    var k = e.key, t = e.target.closest ? e.target : html;
    var own = t.closest(OWN), press = own || t.closest('button, a[href], summary');
    return /^p$/i.test(k) ? 'p' : !projecting ? 0 : k === 'Escape' ? 'p' : k === 'PageDown' ? 1 : k === 'PageUp' ? -1 :
      own ? 0 : k === 'ArrowRight' ? 1 : k === 'ArrowLeft' ? -1 :
      press ? 0 : k === ' ' ? 1 : k === 'Home' ? -1e9 : k === 'End' ? 1e9 : 0;
  }
  // a copy of part of the page to look at, not to use: no ids (they would repeat), no widget roots, no references
  function copyOf(node) {
    var c = node.cloneNode(true);
    [c].concat(all('*', c)).forEach(function (e) {
      ['id', 'data-widget', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'for', 'tabindex']
        .forEach(function (a) { e.removeAttribute(a); });
    });
    return c;
  }
  function notesCopy(n) {
    var c = copyOf(n);
    c.hidden = false;
    c.classList.remove('speaker-notes', 'speaker-notes-shown', 'pj-block', 'pj-on', 'pj-first', 'pj-last');
    all('.speaker-notes-label', c).forEach(function (e) { e.remove(); });   // the teacher's edition's label: the panel has its own
    c.classList.add('pj-notes-copy');
    return c;
  }

  // ── this window is the presenter view: it shows what the projector window (its opener) tells it ────────────────
  function presenterWindow() {
    var peer = win.opener, state = null, shown = '', started = Date.now();
    html.classList.add('lk-projecting', 'lk-presenting');
    doc.title = (words.presenter || '') + ' · ' + doc.title;
    var panel = el('div', 'pj-presenter'), top = el('div', 'pj-p-bar'), grid = el('div', 'pj-p-grid');
    var now = el('h1', 'pj-p-title'), count = el('p', 'pj-p-count'), clock = el('p', 'pj-p-clock');
    var time = el('span', 'pj-p-time'), reset = el('button', 'pj-step', words.presenterReset);
    var prev = el('button', 'pj-step', words.prev), next = el('button', 'pj-step', words.next);
    var status = el('p', 'pj-p-status');
    clock.appendChild(el('span', 'pj-p-label', words.presenterClock));
    clock.appendChild(time);
    time.setAttribute('role', 'timer');
    [reset, prev, next].forEach(function (b) { b.type = 'button'; });
    prev.setAttribute('aria-keyshortcuts', 'ArrowLeft PageUp');
    next.setAttribute('aria-keyshortcuts', 'ArrowRight PageDown Space');
    status.setAttribute('role', 'status');
    [now, count, clock, reset, prev, next].forEach(function (e) { top.appendChild(e); });
    var current = pane('pj-p-now', words.presenterCurrent), coming = pane('pj-p-next', words.presenterNextScreen);
    var notes = pane('pj-p-notes', words.presenterNotes), side = el('div', 'pj-p-side');
    side.appendChild(coming);
    side.appendChild(notes);
    grid.appendChild(current);
    grid.appendChild(side);
    [top, status, grid].forEach(function (e) { panel.appendChild(e); });
    (L.closest('main') || doc.body).appendChild(panel);

    function pane(cls, label) {
      var s = el('section', 'pj-p-pane ' + cls), h = el('h2', 'pj-p-label', label);
      h.id = cls + '-label';
      s.setAttribute('aria-labelledby', h.id);
      s.appendChild(h);
      s.appendChild(el('div', 'pj-p-body'));
      return s;
    }
    // the blocks of screen i as the projector window lays them out: a copy at its size, scaled into the pane
    function stage(i) {
      var frame = el('div', 'pj-stage-frame'), st = el('div', 'pj-stage'), main = el('div', 'pj-stage-main');
      var lesson = el('div', 'lesson'), bs = state.screens[i].blocks.map(function (k) { return blocks[k]; });
      var p = parts.filter(function (x) { return x.blocks.indexOf(bs[0]) >= 0; })[0];
      var holder = el('div', p.box.className);
      holder.classList.add('pj-on');
      bs.forEach(function (b, j) {
        var c = copyOf(b);
        c.classList.add('pj-on');
        if (!j) c.classList.add('pj-first');
        if (j === bs.length - 1) c.classList.add('pj-last');
        holder.appendChild(c);
      });
      lesson.appendChild(holder);
      main.appendChild(lesson);
      st.appendChild(main);
      st.setAttribute('inert', '');
      st.style.width = state.w + 'px';
      st.style.height = state.h + 'px';
      frame.appendChild(st);
      return frame;
    }
    function scale() {
      all('.pj-stage-frame', panel).forEach(function (f) {
        var st = f.firstChild, room = f.parentNode.getBoundingClientRect();
        var k = Math.min(room.width / state.w, Math.max(innerHeight - room.top - 16, 40) / state.h, 1);
        st.style.transform = 'scale(' + k + ')';
        f.style.width = state.w * k + 'px';
        f.style.height = state.h * k + 'px';
      });
    }
    function body(p) { var b = p.lastChild; b.textContent = ''; return b; }
    function render() {
      var key = JSON.stringify(state);
      if (key === shown) return;
      shown = key;
      var n = state.screens.length, i = state.cur, live = state.on && n > 0;
      status.textContent = live ? '' : words.presenterWaiting || '';
      grid.hidden = !live;
      prev.disabled = !live || !i;
      next.disabled = !live || i === n - 1;
      if (!live) { now.textContent = ''; count.textContent = ''; return; }
      html.style.fontSize = state.rem + 'px';
      now.textContent = state.screens[i].title;
      count.textContent = numbered(words.count, i + 1, n);
      body(current).appendChild(stage(i));
      var b = body(coming);
      b.appendChild(i + 1 < n ? stage(i + 1) : el('p', 'pj-p-none', words.presenterLast));
      var nb = body(notes), found = [];
      state.screens[i].blocks.forEach(function (k) {
        var blk = blocks[k];
        found = found.concat(blk.matches(NOTES) ? [blk] : all(NOTES, blk));
      });
      found.forEach(function (x) { nb.appendChild(notesCopy(x)); });
      if (!found.length) nb.appendChild(el('p', 'pj-p-none', words.presenterNoNotes));
      scale();
    }
    function go(move) {
      if (!state || !state.on || !peer || peer.closed) return;
      var to = Math.max(0, Math.min(state.screens.length - 1, state.cur + move));
      peer.postMessage({kind: MSG, type: 'go', to: to}, '*');
    }
    function hello() {
      if (peer && !peer.closed) return peer.postMessage({kind: MSG, type: 'hello'}, '*');
      state = null;
      shown = '';
      grid.hidden = true;
      status.textContent = words.presenterAlone || '';
    }
    function tick() {
      var s = Math.floor((Date.now() - started) / 1000), m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
      function two(x) { return (x < 10 ? '0' : '') + x; }
      time.textContent = (h ? h + ':' + two(m) : two(m)) + ':' + two(s % 60);
    }
    addEventListener('message', function (e) {
      var m = e.data;
      if (!m || m.kind !== MSG || m.type !== 'state' || e.source !== peer) return;
      state = m;
      render();
    });
    doc.addEventListener('keydown', function (e) {
      var t = e.target.closest ? e.target : html;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || t.closest(TEXT)) return;
      var move = stepFor(e, true);
      if (typeof move !== 'number' || !move) return;
      e.preventDefault();
      go(move);
    });
    prev.addEventListener('click', function () { go(-1); });
    next.addEventListener('click', function () { go(1); });
    reset.addEventListener('click', function () { started = Date.now(); tick(); });
    addEventListener('resize', function () { if (state && state.on) scale(); });
    tick();
    setInterval(tick, 1000);
    hello();
    setInterval(hello, 2000);   // a projector window reloaded (or back in projector mode) answers again
  }
});
