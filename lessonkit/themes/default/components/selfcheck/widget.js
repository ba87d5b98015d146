// Self-check (lessonkit/features/selfcheck.py computed every interval, and took every word from the theme's i18n
// files): read what the student typed, find the interval it falls in, say so. This is the only place grading is
// written. Nothing leaves the page; no number is formatted here.
//
// Each check pressed announces what was answered with a `lessonkit:answered` event on the component's root
// (bubbling), so that another component can pass it on — the scorm component, in a page built for a learning
// platform — without grading again. Its detail:
//   {check: root id, complete: every box holds a number it could read (or an option is chosen),
//    right: the check's verdict (every box right, or exactly the correct options),
//    parts: [{id: the box's id (or the root's, for choices), type: 'numeric' | 'choice',
//             value: the number read, in the box's unit | the letters chosen, right: its verdict}]}
// Only boxes holding a readable number are parts; nothing is announced before an option is chosen.
lessonkit.widget('selfcheck', function (root, data) {
  'use strict';
  var all = lessonkit.all, one = lessonkit.one, fill = lessonkit.fill, msg = data.messages;
  var SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹', status = one('.sc-status', root);

  // "4×10⁻³", "4 × 10^-3", full-width "4.05e-3", "0,004", "0.004 %" → a number in the field's unit (NaN if unreadable)
  function parse(text, unit) {
    var s = String(text).replace(/[\s\u00a0\u2009\u202f]+/g, '');
    s = s.replace(/[×xX*·]10(?:\^|\*\*)?([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, function (m, e) {
      return 'e' + e.replace(/./g, function (c) { return c === '⁻' ? '-' : c === '⁺' ? '+' : String(SUP.indexOf(c)); });
    });
    s = s.normalize('NFKC').replace(/[\u2212\u2012\u2013\u2014\ufe63]/g, '-');
    s = s.replace(/[×xX*·]10(?:\^|\*\*)\(?([+-]?\d+)\)?/, 'e$1');
    var percent = false, u = unit ? unit.normalize('NFKC').replace(/\s+/g, '') : '';
    if (u && s.slice(-u.length) === u) s = s.slice(0, -u.length);
    else if (u !== '%' && s.slice(-1) === '%') { s = s.slice(0, -1); percent = true; }
    if (s.indexOf(',') >= 0) {
      if (s.indexOf('.') < 0 && !/^[+-]?[1-9]\d{0,2}(,\d{3})+$/.test(s)) s = s.replace(',', '.');  // 0,004
      else s = s.replace(/,/g, '');                                                                  // 1,000.5
    }
    if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return NaN;
    var x = parseFloat(s);
    return percent ? x / 100 : x;
  }
  function within(x, lo, hi) { return lo <= x && x <= hi; }
  // accepted → a known mistake → the sign → how far off, by the ratio to the answer (edges computed at build time)
  function judge(check, x) {
    var lo = check.accept[0], hi = check.accept[1], i, m;
    if (within(x, lo, hi)) return [true, msg.right];
    for (i = 0; i < check.mistakes.length; i++) {
      m = check.mistakes[i];
      if (within(x, m[0], m[1])) return [false, m[2]];
    }
    if (check.answer === 0) return [false, x > hi ? msg.above : msg.below];
    var t = data.ratios[check.answer < 0 ? 'neg' : 'pos'], r = x / check.answer, e = t.edges;
    if (within(-x, lo, hi)) return [false, t.flip];
    if (r < 0) return [false, t.sign];
    for (i = 0; i + 1 < e.length; i++) if (e[i] <= r && r < e[i + 1]) return [false, t.says[i]];
    return [false, t.over];
  }
  function show(fb, ok, text) {
    fb.textContent = text;
    fb.className = 'sc-feedback ' + (ok === null ? '' : ok ? 'is-right' : 'is-wrong');
  }

  function tell(parts, complete, right) {
    root.dispatchEvent(new CustomEvent('lessonkit:answered', {bubbles: true,
      detail: {check: root.id, complete: complete, right: right, parts: parts}}));
  }

  function checkFields() {
    var said = [], right = 0, parts = [];
    data.fields.forEach(function (check) {
      var input = document.getElementById(check.id), fb = document.getElementById(check.id + '-fb');
      var text = input.value.trim(), x = parse(text, check.unit), verdict;
      if (!text) verdict = [null, msg.empty];
      else if (isNaN(x)) verdict = [null, msg.unreadable];
      else verdict = judge(check, x);
      show(fb, verdict[0], verdict[1]);
      input.setAttribute('aria-invalid', String(verdict[0] === false));
      if (verdict[0]) right++;
      if (verdict[0] !== null) parts.push({id: check.id, type: 'numeric', value: x, right: verdict[0]});
      said.push(data.fields.length > 1 ? fill(msg.said, {label: check.label, verdict: verdict[1]}) : verdict[1]);
    });
    status.textContent = data.fields.length > 1 && right === data.fields.length ? msg.all_right : said.join(' ');
    root.setAttribute('data-verdict', right === data.fields.length ? 'right' : 'wrong');
    tell(parts, parts.length === data.fields.length, right === data.fields.length);
  }

  function checkChoices() {
    var c = data.choices, boxes = all('.sc-choice input', root), picked = [], said = [], i, missing = 0;
    boxes.forEach(function (box, k) {
      var fb = document.getElementById(box.id + '-fb'), correct = c.correct.indexOf(k) >= 0;
      if (box.checked) {
        picked.push(k);
        show(fb, correct, (correct ? msg.choice_right : msg.choice_wrong) + (c.feedback[k] ? ' ' + c.feedback[k] : ''));
        said.push(fill(msg.said, {label: c.letters[k], verdict: fb.textContent}));
      } else {
        show(fb, null, '');
        if (correct) missing++;
      }
    });
    if (!picked.length) { status.textContent = msg.choose; root.removeAttribute('data-verdict'); return; }
    var ok = missing === 0 && picked.every(function (k) { return c.correct.indexOf(k) >= 0; });
    if (missing && c.multiple) said.push(msg.choice_missing);
    status.textContent = said.join(' ');
    root.setAttribute('data-verdict', ok ? 'right' : 'wrong');
    tell([{id: root.id, type: 'choice', value: picked.map(function (k) { return c.letters[k]; }), right: ok}], true, ok);
  }

  function check() { if (data.choices) checkChoices(); else if (data.fields.length) checkFields(); }
  var button = one('.sc-check', root);
  if (button) button.addEventListener('click', check);
  all('.sc-form input', root).forEach(function (input) {
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { e.preventDefault(); check(); }
    });
  });

  // hints one at a time, then the worked answer
  var hints = one('.sc-hints', root), next = one('.sc-hint-next', root);
  if (hints && next) {
    var items = all('.sc-hint', hints), shown = 0;
    var answer = root.parentNode.querySelector('details.answer');
    hints.open = true;
    hints.classList.add('is-stepped');
    one('.sc-hint-list', hints).setAttribute('aria-live', 'polite');
    items.forEach(function (li) { li.classList.add('is-hidden'); });
    var label = function () {
      next.textContent = shown < items.length ? fill(msg.hint_step, {i: shown + 1, n: items.length}) : msg.hint_answer;
      next.disabled = shown >= items.length && !answer;
    };
    next.addEventListener('click', function () {
      if (shown < items.length) {
        items[shown].classList.remove('is-hidden');
        shown++;
        hints.classList.add('has-shown');
      } else if (answer) {
        answer.open = true;
        one('summary', answer).focus();
      }
      label();
    });
    label();
  }
  root.classList.add('is-live');
});
