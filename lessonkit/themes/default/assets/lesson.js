// The theme's base code: the component registry and what every page needs. Each component's own code
// (widgets/<kind>/widget.js, components/<name>/widget.js) follows this, each in its own inline script, and registers
// itself:
//   lessonkit.widget('kind', function (root, data) { … });
// At DOMContentLoaded every element [data-widget=kind] is handed to its kind's function, with the JSON the build
// put in #<root id>-data (or null). A component that throws stops only itself: the console names its kind, and the
// error's stack its file (each script ends with //# sourceURL=…/widget.js). Numbers arrive formatted: this code
// never formats one.
(function () {
  'use strict';
  var doc = document, kinds = {};  // <html class="js">: assets/head.js, before the body is parsed

  function all(sel, el) { return Array.prototype.slice.call((el || doc).querySelectorAll(sel)); }
  function one(sel, el) { return (el || doc).querySelector(sel); }
  function readData(el) {
    var s = el.id && doc.getElementById(el.id + '-data');
    try { return s ? JSON.parse(s.textContent) : null; } catch (e) { return null; }
  }
  // a theme's word with its fields filled in: fill('{label}: {verdict}', {label: 'b', verdict: 'right'}) → 'b: right'.
  // Every `{name}` it is given a field for, each time it occurs; one it is not given stays as written. The one filler
  // of the page's scripts (the words come from the theme's i18n files, the fields formatted by the build or read off
  // the page).
  function fill(template, fields) {
    return String(template == null ? '' : template).replace(/\{(\w+)\}/g, function (m, name) {
      return Object.prototype.hasOwnProperty.call(fields, name) ? String(fields[name]) : m;
    });
  }

  window.lessonkit = {
    all: all,
    one: one,
    fill: fill,
    widget: function (kind, init) { kinds[kind] = init; }
  };

  var started = false;
  function start() {
    all('[data-widget]').forEach(function (el) {
      var init = kinds[el.getAttribute('data-widget')];
      if (!init) return;
      try { init(el, readData(el)); } catch (e) { console.error(el.getAttribute('data-widget'), e); }
    });
    started = true;  // the widgets' refresh calls while starting are folded into this one
    keyboardScroll();
    everyWhenIdle();
    doc.documentElement.setAttribute('data-lk-started', '');  // every component started (tests wait for this)
  }

  // a box that scrolls sideways (wide formula, table or figure on a phone) must be reachable by keyboard (WCAG 2.1.1):
  // focusable exactly while it overflows, so wide screens get no extra Tab stops. A display formula's box (the
  // .math-block around it, which scrolls) is then a region named by the theme's word (main[data-formula-scrolls]),
  // its edges beyond which more of it lies marked for style.css's shades. Asking whether a box overflows lays it
  // out: boxes in a section still skipped by content-visibility:auto wait until it is rendered (or `every`).
  function keyboardScroll(root, every) {
    if (!started) return;
    var name = (one('main[data-formula-scrolls]') || doc.documentElement).getAttribute('data-formula-scrolls');
    all('math:not([display=block]), .math-block, .table-scroll, pre, .figure-svg',
        root && root.nodeType === 1 ? root : null).forEach(function (el) {
      if (every !== true && el.checkVisibility && !el.checkVisibility({contentVisibilityAuto: true})) return;
      var wide = el.scrollWidth > el.clientWidth + 1;
      if (wide) el.setAttribute('tabindex', '0');
      else if (el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
      if (el.classList.contains('math-block')) formulaBox(el, wide, name);
    });
  }
  function formulaBox(el, wide, name) {
    if (wide && name) { el.setAttribute('role', 'region'); el.setAttribute('aria-label', name); }
    else if (!wide) { el.removeAttribute('role'); el.removeAttribute('aria-label'); }
    if (wide && !el.lkEdges) {
      el.lkEdges = true;
      el.addEventListener('scroll', function () { edges(el); }, {passive: true});
    }
    if (wide) edges(el); else el.removeAttribute('data-more');
  }
  // which edges of a box have more of it beyond them: data-more is 'left', 'right', 'left right' or absent
  function edges(el) {
    var more = [el.scrollLeft > 1 ? 'left' : '', el.scrollLeft + el.clientWidth < el.scrollWidth - 1 ? 'right' : ''];
    more = more.join(' ').trim();
    if (more) el.setAttribute('data-more', more); else el.removeAttribute('data-more');
  }
  // sections the browser has not laid out yet (content-visibility:auto, style.css) are checked when it renders them,
  // and all of them after the first paint and after a resize, when the page is idle
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); }, pending = false;
  function everyWhenIdle() {
    if (pending) return;
    pending = true;
    idle(function () {
      pending = false;
      keyboardScroll(null, true);
      doc.documentElement.setAttribute('data-lk-checked', '');  // every box checked once (tests wait for this)
    }, {timeout: 2000});
  }
  function refresh() { keyboardScroll(); }
  window.addEventListener('resize', function () { keyboardScroll(); everyWhenIdle(); });
  doc.addEventListener('toggle', function (e) { keyboardScroll(e.target, true); }, true);  // what just opened
  doc.addEventListener('contentvisibilityautostatechange', function (e) {
    if (!e.skipped) keyboardScroll(e.target);
  }, true);
  lessonkit.refresh = refresh;  // for components that change what overflows

  // the first screen paints before the components start: they add behaviour to what the page already shows (it
  // reads the same without them), so their work need not delay the first paint. After the next frame, or soon
  // where no frame comes (a page printed, or hidden).
  function soon() {
    var go = function () { if (!started) start(); };
    requestAnimationFrame(function () { setTimeout(go, 0); });
    setTimeout(go, 250);
  }
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', soon);
  else soon();
})();
