// SCORM 1.2, in pages built for a learning platform's package (`lessonkit export scorm`; render/lesson.py
// Containers.scorm (render/containers.py) writes the data: the page's self-checks, [id on the page, id in the platform's records],
// and the lesson's mastery percentage). It finds the platform's API the standard way (window.API in this window,
// then up its parents, at most MAX_HOPS of them, then from its opener), and reports:
// - each self-check answered, as interactions (one per box, or one per choice question): what the self-check
//   component announced with its `lessonkit:answered` event (components/selfcheck/widget.js) — never graded here;
// - the score over all the page's self-checks, in percent (cmi.core.score.raw, min 0, max 100): a check counts
//   with its first complete answer (later answers are reported as interactions, and change no score);
// - the status: incomplete until every check is answered, then passed or failed against the mastery
//   percentage (a page without self-checks is completed when opened);
// committing after each answer, and finishing when the page is left. Its answers so far are kept in
// cmi.suspend_data, so a student who comes back (cmi.core.entry resume) goes on where they were.
// Outside a platform (no API found) it does nothing and says nothing.
lessonkit.widget('scorm', function (root, data) {
  'use strict';
  var MAX_HOPS = 7;

  function apiFrom(win) {
    for (var hops = 0; win && hops <= MAX_HOPS; hops++) {
      try {
        if (win.API) return win.API;
      } catch (e) {
        return null;  // a frame of another origin: not our platform
      }
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  var api = apiFrom(window);
  if (!api && window.opener) api = apiFrom(window.opener);
  if (!api || typeof api.LMSInitialize !== 'function' || String(api.LMSInitialize('')) !== 'true') return;

  var names = {}, order = [];
  data.checks.forEach(function (pair) { names[pair[0]] = pair[1]; order.push(pair[0]); });
  var get = function (name) { return String(api.LMSGetValue(name)); };
  var set = function (name, value) { return api.LMSSetValue(name, String(value)); };
  var counted = {}, status = '', started = Date.now(), finished = false;
  var review = get('cmi.core.lesson_mode') === 'review';  // an attempt looked back at: nothing is recorded
  var next = Number(get('cmi.interactions._count')) || 0;
  root.classList.add('is-connected');

  // 4e-7 → "0.0000004": a numeric response is a plain decimal (SCORM's CMIDecimal has no exponent)
  function decimal(x) {
    var s = String(x), m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
    if (!m) return s;
    var digits = m[2] + (m[3] || ''), e = Number(m[4]);
    if (e < 0) return m[1] + '0.' + new Array(-e).join('0') + digits;
    return m[1] + digits + new Array(e - digits.length + 2).join('0');
  }
  function response(part) {
    if (part.type === 'numeric') return decimal(part.value);
    return part.value.map(function (letter) { return String(letter).toLowerCase(); }).join(',');
  }
  function two(n) { return (n < 10 ? '0' : '') + n; }
  function timespan(ms) {  // CMITimespan HH:MM:SS
    var s = Math.floor(ms / 1000);
    return two(Math.floor(s / 3600)) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
  }

  function report() {
    var right = 0, done = 0;
    order.forEach(function (id) {
      if (id in counted) { done++; right += counted[id]; }
    });
    if (order.length) {
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', 100);
      set('cmi.core.score.raw', 100 * right / order.length);
      status = done < order.length ? 'incomplete' : 100 * right >= data.mastery * order.length ? 'passed' : 'failed';
      set('cmi.suspend_data', JSON.stringify(counted));
    } else {
      status = 'completed';
    }
    set('cmi.core.lesson_status', status);
    api.LMSCommit('');
  }

  if (!review) {
    if (get('cmi.core.entry') === 'resume') {
      try {
        var kept = JSON.parse(get('cmi.suspend_data') || '{}');
        order.forEach(function (id) { if (kept[id] === 0 || kept[id] === 1) counted[id] = kept[id]; });
      } catch (e) {
        counted = {};
      }
    }
    report();
    document.addEventListener('lessonkit:answered', function (event) {
      var said = event.detail;
      if (!said || !(said.check in names)) return;
      said.parts.forEach(function (part) {
        var at = 'cmi.interactions.' + next++ + '.';
        set(at + 'id', names[said.check] + part.id.slice(said.check.length));
        set(at + 'type', part.type);
        set(at + 'student_response', response(part));
        set(at + 'result', part.right ? 'correct' : 'wrong');
      });
      if (said.complete && !(said.check in counted)) counted[said.check] = said.right ? 1 : 0;
      report();
    });
  }

  window.addEventListener('pagehide', function () {
    if (finished) return;
    finished = true;
    if (!review) {
      set('cmi.core.session_time', timespan(Date.now() - started));
      set('cmi.core.exit', status === 'incomplete' ? 'suspend' : '');
      api.LMSCommit('');
    }
    api.LMSFinish('');
  });
});
