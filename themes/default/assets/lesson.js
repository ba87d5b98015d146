// The theme's base code: the component registry and what every page needs. Each widget kind's own code
// (widgets/<kind>/widget.js) follows this in the page's one inline script and registers itself:
//   lessonkit.widget('kind', function (root, data) { … });
// At DOMContentLoaded every element [data-widget=kind] is handed to its kind's function, with the JSON the build
// put in #<root id>-data (or null). Numbers arrive formatted: this code never formats one.
(function () {
  'use strict';
  var doc = document, kinds = {};
  doc.documentElement.classList.add('js');

  function all(sel, el) { return Array.prototype.slice.call((el || doc).querySelectorAll(sel)); }
  function one(sel, el) { return (el || doc).querySelector(sel); }
  function readData(el) {
    var s = el.id && doc.getElementById(el.id + '-data');
    try { return s ? JSON.parse(s.textContent) : null; } catch (e) { return null; }
  }

  window.lessonkit = {
    all: all,
    one: one,
    widget: function (kind, init) { kinds[kind] = init; }
  };

  function start() {
    all('[data-widget]').forEach(function (el) {
      var init = kinds[el.getAttribute('data-widget')];
      if (!init) return;
      try { init(el, readData(el)); } catch (e) { console.error(el.id || el.getAttribute('data-widget'), e); }
    });
    keyboardScroll();
  }

  // a box that scrolls sideways (wide formula, table or figure on a phone) must be reachable by keyboard (WCAG 2.1.1):
  // focusable exactly while it overflows, so wide screens get no extra Tab stops
  function keyboardScroll() {
    all('math, .table-scroll, pre, .figure-svg').forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) el.setAttribute('tabindex', '0');
      else if (el.getAttribute('tabindex') === '0') el.removeAttribute('tabindex');
    });
  }
  window.addEventListener('resize', keyboardScroll);
  doc.addEventListener('toggle', keyboardScroll, true);
  lessonkit.refresh = keyboardScroll;  // for components that change what overflows

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', start);
  else start();
})();
