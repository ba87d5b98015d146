// Colour mode: light / dark / follow the system. The CSS follows prefers-color-scheme on its own; a reader's choice is kept in
// localStorage (per origin: every page of a site, file:// included) and set as html[data-theme] as soon as this
// script runs — before the widgets start — so a page opens in the chosen mode.
(function () {
  'use strict';
  var KEY = 'lessonkit-colormode', html = document.documentElement;

  function stored() {
    try {
      var v = window.localStorage.getItem(KEY);
      return v === 'light' || v === 'dark' ? v : 'auto';
    } catch (e) { return 'auto'; }  // storage blocked (privacy settings, sandboxed frame): follow the system
  }
  function store(mode) {
    try {
      if (mode === 'auto') window.localStorage.removeItem(KEY); else window.localStorage.setItem(KEY, mode);
    } catch (e) { /* not remembered, still applied to this page */ }
  }
  function apply(mode) {
    if (mode === 'light' || mode === 'dark') html.setAttribute('data-theme', mode);
    else html.removeAttribute('data-theme');
  }
  apply(stored());

  lessonkit.widget('colormode', function (root) {
    var buttons = lessonkit.all('button[data-mode]', root);
    function show(mode) {
      buttons.forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-mode') === mode)); });
    }
    buttons.forEach(function (b) {
      b.addEventListener('click', function () {
        var mode = b.getAttribute('data-mode');
        store(mode);
        apply(mode);
        show(mode);
      });
    });
    // another tab or page of the site changed it
    window.addEventListener('storage', function (e) {
      if (e.key === KEY || e.key === null) { apply(stored()); show(stored()); }
    });
    show(stored());
  });
})();
