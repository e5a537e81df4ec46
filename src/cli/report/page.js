// muon check --report: the page's script (inlined into the page). Selecting a step (a
// click on its row or on its state in the picture, or the keys ↓/j and ↑/k) marks its
// state and transition in the picture and shows the specification lines of the summand
// that made it. Opened as `…#selftest`, the page selects every step through these same
// handlers and writes what it marked into #selftest-result as JSON.
(function () {
  'use strict';
  var page = JSON.parse(document.querySelector('script.page-data').textContent);
  var source = page.source;
  var all = [];
  var current = null;
  var selftest = location.hash === '#selftest';

  function text(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.textContent = content;
    return e;
  }

  // Scrolls `box` (a scrolling container) so that `el` is inside it, by as little as needed
  // or (`center`) to its middle; the page stays put.
  function reveal(box, el, center) {
    if (!box || !el) return;
    var b = box.getBoundingClientRect();
    var r = el.getBoundingClientRect();
    var out = r.top < b.top + 30 || r.bottom > b.bottom - 10;
    if (out && center) box.scrollTop += (r.top + r.bottom) / 2 - (b.top + b.bottom) / 2;
    else if (r.top < b.top + 30) box.scrollTop -= b.top + 30 - r.top;
    else if (r.bottom > b.bottom - 10) box.scrollTop += r.bottom - b.bottom + 10;
    // Sideways, an element out of view is brought to the middle.
    if (r.left < b.left || r.right > b.right) box.scrollLeft += (r.left + r.right) / 2 - (b.left + b.right) / 2;
  }

  function setup(root) {
    var data = JSON.parse(root.querySelector('script.evidence-data').textContent);
    var ev = {
      root: root,
      data: data,
      rows: Array.prototype.slice.call(root.querySelectorAll('table.steps tbody tr')),
      states: {},
      edges: {},
      pos: -1,
      picture: root.querySelector('.picture'),
      scroll: root.querySelector('.steps-scroll'),
      pane: root.querySelector('.source-pane')
    };
    root.querySelectorAll('.lts-state').forEach(function (g) {
      ev.states[g.getAttribute('data-state')] = ev.states[g.getAttribute('data-state')] || [];
      ev.states[g.getAttribute('data-state')].push(g);
    });
    root.querySelectorAll('.lts-transition').forEach(function (g) {
      ev.edges[g.getAttribute('data-transition')] = g;
    });
    data.pos.forEach(function (s) {
      (ev.states[s] || []).forEach(function (g) { g.classList.add('on-trace'); });
    });
    data.edge.forEach(function (k, i) {
      var g = ev.edges[k];
      if (!g) return;
      var cycle = data.loop !== null && i >= data.loop;
      g.classList.add(cycle ? 'on-cycle' : 'on-trace');
    });
    if (ev.picture) {
      // Drawn at its own size (labels readable, the picture scrolls); a button fits it in.
      var bar = text('div', 'toolbar');
      var zoom = text('button', 'zoom', 'Fit to width');
      zoom.type = 'button';
      zoom.addEventListener('click', function () {
        var fit = ev.picture.classList.toggle('fit');
        zoom.textContent = fit ? 'Actual size' : 'Fit to width';
      });
      bar.appendChild(zoom);
      ev.picture.parentNode.insertBefore(bar, ev.picture);
      var legend = text('p', 'legend');
      legend.innerHTML = '<span class="sw" style="background:#1565c0"></span>the trace' +
        (data.loop !== null ? '<span class="sw" style="background:#e65100"></span>its cycle (repeats forever)' : '') +
        '<span class="sw" style="background:#b0b0b0"></span>other steps of the evidence' +
        '<span class="sw" style="background:#ffe082;height:.8em"></span>the selected state';
      ev.picture.parentNode.appendChild(legend);
    }
    // The run starts in view.
    if (ev.picture) reveal(ev.picture, (ev.states[data.pos[0]] || [])[0], true);
    ev.rows.forEach(function (row, i) {
      row.addEventListener('click', function () { select(ev, i); });
    });
    Object.keys(ev.states).forEach(function (s) {
      ev.states[s].forEach(function (g) {
        g.addEventListener('click', function () {
          var i = data.pos.indexOf(Number(s));
          if (i >= 0) select(ev, i);
        });
      });
    });
    return ev;
  }

  function clear(ev) {
    ev.root.querySelectorAll('.sel').forEach(function (e) { e.classList.remove('sel'); });
  }

  function select(ev, i) {
    if (i < 0 || i >= ev.rows.length) return;
    if (current && current !== ev) clear(current);
    clear(ev);
    current = ev;
    ev.pos = i;
    var row = ev.rows[i];
    row.classList.add('sel');
    reveal(ev.scroll, row);
    var node = (ev.states[ev.data.pos[i]] || [])[0];
    (ev.states[ev.data.pos[i]] || []).forEach(function (g) { g.classList.add('sel'); });
    if (i > 0 && ev.edges[ev.data.edge[i - 1]]) ev.edges[ev.data.edge[i - 1]].classList.add('sel');
    reveal(ev.picture, node, true);
    showSource(ev, i, row);
    if (!selftest) {
      // The selection as the page's address (`#f2.5`: formula 2, step 5), to link to it.
      try { history.replaceState(null, '', '#' + ev.root.parentNode.id + '.' + i); } catch (e) { /* a file: address may refuse */ }
    }
  }

  function showSource(ev, i, row) {
    var pane = ev.pane;
    pane.innerHTML = '';
    var name = row.cells[row.cells.length - 1].textContent;
    var where = name === '—' ? '' : ' (state ' + name + ' in the picture)';
    if (i === 0) {
      pane.appendChild(text('p', 'head', 'The initial state' + where + ': the run starts here; no step leads to it.'));
      return;
    }
    var action = row.cells[1].querySelector('code').textContent;
    var steps = ev.data.steps;
    var step = steps.steps[i - 1];
    if (steps.kind === 'lts') {
      var t = step.from === undefined ? '' : ': from state ' + step.from + ' by ' + step.label + ' to state ' + step.to;
      pane.appendChild(text('p', 'head', 'Step ' + i + ', ' + action + where + ', is transition ' + step.transition +
        ' of ' + page.model + t + '. The model is an LTS, so no line of a specification made it.'));
      return;
    }
    var sm = steps.summands[step.summand];
    pane.appendChild(text('p', 'head', 'Step ' + i + ', ' + action + where + ', is made by summand ' + step.summand +
      ' of the linearised specification' + (sm.what ? ', which comes from ' + sm.what : '') + '. ' +
      (sm.blocks.length ? 'Its process equations (the marked lines name its actions):' : 'No line of the specification is recorded for it.')));
    var hit = {};
    (sm.hit || []).forEach(function (l) { hit[l] = true; });
    sm.blocks.forEach(function (b) {
      pane.appendChild(text('div', 'file', source.file + ', line' + (b.from === b.to ? ' ' + b.from : 's ' + b.from + '–' + b.to)));
      var pre = document.createElement('pre');
      var last = null;
      b.shown.forEach(function (l) {
        if (last !== null && l > last + 1) pre.appendChild(text('span', 'gap', '⋮'));
        var line = text('span', 'line' + (hit[l] ? ' hit' : ''));
        line.setAttribute('data-line', l);
        line.appendChild(text('span', 'ln', String(l)));
        line.appendChild(document.createTextNode(source.lines[l] === undefined ? '' : source.lines[l]));
        pre.appendChild(line);
        last = l;
      });
      pane.appendChild(pre);
    });
  }

  document.querySelectorAll('.evidence').forEach(function (root) { all.push(setup(root)); });

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target && e.target.tagName;
    if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') return;
    var d = (e.key === 'ArrowDown' || e.key === 'j') ? 1 : (e.key === 'ArrowUp' || e.key === 'k') ? -1 : 0;
    if (!d || !all.length) return;
    var ev = current || all[0];
    e.preventDefault();
    select(ev, ev.pos < 0 ? 0 : Math.max(0, Math.min(ev.rows.length - 1, ev.pos + d)));
  });

  // An address `#f2.5` selects step 5 of formula 2 (what the page's address says after a
  // selection, so that a link or a reload shows the same step).
  var wanted = /^#(f[0-9]+)\.([0-9]+)$/.exec(location.hash);
  if (wanted) {
    all.forEach(function (ev) {
      if (ev.root.parentNode.id === wanted[1]) {
        var r = ev.root.getBoundingClientRect();
        if (r.top > window.innerHeight || r.bottom < 0) ev.root.scrollIntoView();
        select(ev, Number(wanted[2]));
      }
    });
  }

  // What the page shows marked now, for the self-test.
  function marked(ev) {
    var sel = ev.root.querySelectorAll('.lts-state.sel');
    var edge = ev.root.querySelector('.lts-transition.sel');
    var box = sel.length ? sel[0].getBoundingClientRect() : null;
    var head = ev.pane.querySelector('.head');
    return {
      row: ev.rows.indexOf(ev.root.querySelector('tr.sel')),
      states: sel.length,
      state: sel.length ? sel[0].getAttribute('data-name') : null,
      drawn: box !== null && box.width > 0 && box.height > 0,
      edge: edge ? Number(edge.getAttribute('data-transition')) : null,
      head: head ? head.textContent : null,
      lines: Array.prototype.map.call(ev.pane.querySelectorAll('.line'), function (l) { return Number(l.getAttribute('data-line')); }),
      hits: Array.prototype.map.call(ev.pane.querySelectorAll('.line.hit'), function (l) {
        return [Number(l.getAttribute('data-line')), l.lastChild.textContent];
      })
    };
  }

  function key(k) {
    document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  }

  if (selftest) {
    var result = all.map(function (ev) {
      var clicks = ev.rows.map(function (row) {
        row.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        return marked(ev);
      });
      ev.rows[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var keys = ['j', 'ArrowDown', 'k', 'ArrowUp', 'ArrowUp'].map(function (k) {
        key(k);
        return [k, ev.pos];
      });
      var last = ev.rows.length - 1;
      var node = (ev.states[ev.data.pos[last]] || [])[0];
      var picked = null;
      if (node) {
        ev.rows[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
        node.dispatchEvent(new MouseEvent('click', { bubbles: true }));
        picked = ev.pos;
      }
      return {
        section: ev.root.parentNode.id,
        picture: !!ev.picture,
        clicks: clicks,
        keys: keys,
        picked: picked,
        expected_pick: ev.data.pos.indexOf(ev.data.pos[last])
      };
    });
    var out = document.getElementById('selftest-result');
    out.textContent = JSON.stringify(result);
    out.hidden = false;
  }
})();
