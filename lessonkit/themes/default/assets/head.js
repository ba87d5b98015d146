// The page's one script in its <head>, run before the body is parsed: it marks <html> as scripted (class `js`), so
// the browser lays out and paints the first screen once, with the controls only JavaScript works (.js-only) and
// without the no-JS forms they replace, rather than again when lesson.js runs at the end of the body.
document.documentElement.classList.add('js');
