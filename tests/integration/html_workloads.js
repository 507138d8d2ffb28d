// What html_workloads.sh asks of a page, evaluated in Chromium after the page's own script ran: one JSON string.
(function () {
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var text = function (e) { return e ? e.textContent : null; };
  var top = function (id) { var e = document.getElementById(id); return e ? e.getBoundingClientRect().top + scrollY : null; };
  var o = {};
  ['y', 'abi', 'closure', 'off', 'probe'].forEach(function (w) {
    o['opt_' + w] = all('#options tr[data-want=' + w + '] td.opt').map(text).sort();
    o['label_' + w] = all('#options tr[data-want=' + w + '] .label').map(text)
      .filter(function (t, i, a) { return a.indexOf(t) === i; });
  });
  o.sections = all('#sections tbody tr').map(function (r) {
    return { name: text(r.querySelector('td.sec')), calls: +r.cells[2].dataset.v,
      m: all('ul.m li', r).map(text), r: all('ul.r li', r).map(text), l: all('ul.l li', r).map(text) };
  });
  o.reached = all('#reached tbody tr').map(function (r) { return text(r.cells[0]); }).sort();
  o.sum_kconfig = text(document.getElementById('sum-kconfig'));
  o.sum_sections = text(document.getElementById('sum-sections'));
  o.order = ['summary', 'options', 'sections', 'reached', 'classes', 'times', 'timeline', 'syscalls', 'sources', 'files']
    .map(function (id) { return [id, top(id)]; });
  o.classes = all('#classes g.row').map(function (g) { return [text(g.querySelector('text.lbl')), +g.dataset.v]; });
  o.works = all('#times g.row').filter(function (g) { return g.querySelector('rect.time'); })
    .map(function (g) { return [text(g.querySelector('text.lbl')), +g.dataset.v]; });
  o.waits = all('#times g.row').filter(function (g) { return g.querySelector('rect.wait'); })
    .map(function (g) { return [text(g.querySelector('text.lbl')), +g.dataset.v]; });
  // The timeline: lanes, bars, and every label inside its lane (vertically) and its column (horizontally).
  var svg = document.getElementById('timeline'), lw = svg ? +svg.dataset.labelW : 0, sw = svg ? svg.width.baseVal.value : 0;
  o.lanes_by = svg ? svg.dataset.lanes : null;
  o.lanes = all('#timeline g.lane-g').length;
  o.bars = all('#timeline rect.bar').length;
  o.lane_h = Math.min.apply(null, all('#timeline g.lane-g > rect:first-child').map(function (r) { return r.height.baseVal.value; }));
  o.labels = all('#timeline text.lbl').map(text);
  o.overflow = [];
  all('#timeline g.lane-g').forEach(function (g) {
    var r = g.querySelector('rect'), t = g.querySelector('text.lbl'), b = t.getBBox(), y = r.y.baseVal.value, h = r.height.baseVal.value;
    if (b.y < y || b.y + b.height > y + h || b.x < 0 || b.x + b.width > lw)
      o.overflow.push(t.textContent + ' [' + [b.x, b.y, b.width, b.height] + '] in lane y ' + y + ' h ' + h);
  });
  all('#timeline text').forEach(function (t) {
    var b = t.getBBox();
    if (b.x < 0 || b.x + b.width > sw) o.overflow.push('past the chart: ' + t.textContent);
  });
  return JSON.stringify(o);
})()
