'use strict';
// The interactive page of `carc export --format html`. Everything it shows comes from the
// JSON in #carc-data (text from the log included) and is put into the page with textContent
// only; the board is made of the SVG fragments in #pool, written by carc-draw, which this
// script clones and never builds. The page's Content-Security-Policy runs this script only.
(function () {
  const data = JSON.parse(document.getElementById('carc-data').textContent);
  const byId = (id) => document.getElementById(id);
  const pool = Array.from(byId('pool').children);
  const lines = data.lines;
  const main = lines[0];
  const best = new Map(data.best.map((b) => [b.position, b]));
  let line = 0;
  let pos = 0;
  // Whether the board shows the position after the best move found instead of the move played.
  let showBest = false;

  // An element with a class and a text (never markup).
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function swatch(seat) {
    const p = data.players[seat];
    return el('span', 'swatch c-' + (p ? p.color : 'none'));
  }
  function playerName(seat) {
    const p = data.players[seat];
    return p ? p.name : 'seat ' + seat;
  }

  // Positions of a line: 0 (before the first event) to its number of steps.
  function length(l) {
    return l === 0 ? data.steps.length : lines[l].from + lines[l].steps.length;
  }
  // The step whose effects position k shows (the k-th step), or null at position 0.
  function stepAt(l, k) {
    if (k < 1) return null;
    const L = lines[l];
    if (l === 0 || k - 1 < L.from) return data.steps[k - 1];
    return L.steps[k - 1 - L.from];
  }
  function boardAt(l, k) {
    const L = lines[l];
    return k >= L.first ? L.at[k - L.first] : main.at[k];
  }
  function show(group, ids) {
    byId(group).replaceChildren(...ids.map((i) => pool[i].cloneNode(true)));
  }
  function turnTitle(s) {
    if (s.turn === 0) return 'Start';
    return s.seat === null ? 'Turn ' + s.turn : 'Turn ' + s.turn + ': ' + playerName(s.seat);
  }

  function drawBoard() {
    const b = line === 0 ? best.get(pos) : undefined;
    const alternative = b && showBest && b.board;
    const [tiles, view, marks, top] = alternative ? b.board.at : boardAt(line, pos);
    const board = byId('board');
    board.setAttribute('viewBox', data.board.views[view]);
    show('tiles', (alternative ? b.board.tiles : lines[line].tiles).slice(0, tiles));
    show('marks', data.board.frames[marks]);
    show('top', data.board.frames[top]);
    // The best move: its tile faintly on its square, outlined; or its whole board, outlined.
    show('best', b === undefined ? [] : alternative ? [b.frame] : [b.faded, b.frame]);
    board.dataset.best = alternative ? 'board' : b ? 'placement' : '';
    const s = stepAt(line, pos);
    board.dataset.position = String(pos);
    board.dataset.seq = String(s ? s.seq : 0);
    board.dataset.tiles = String(tiles);
  }

  function list(parent, cls, items) {
    if (!items || items.length === 0) return;
    const ul = el('ul', cls);
    for (const t of items) ul.append(el('li', null, t));
    parent.append(ul);
  }
  function marks(parent, ms) {
    for (const m of ms) {
      const a = el('abbr', m.extra ? 'glyph extra' : 'glyph', m.glyph);
      a.title = m.meaning;
      parent.append(a);
    }
  }
  function scoreDetails(parent, sc) {
    const d = el('details', 'score');
    d.append(el('summary', null, 'score: ' + sc.headline));
    list(d, null, sc.details);
    parent.append(d);
  }

  function showEvent() {
    const box = byId('event');
    box.replaceChildren();
    const s = stepAt(line, pos);
    if (line !== 0) {
      const L = lines[line];
      box.append(el('p', 'line', L.title + (pos > L.from ? '' : ' (still the game here)')));
    }
    if (!s) {
      box.append(el('h3', null, 'Before the first event'));
      return;
    }
    box.append(el('h3', null, turnTitle(s)));
    const p = el('p', 'text');
    p.append(el('span', 'seq', s.seq));
    marks(p, s.marks);
    p.append(document.createTextNode(s.text));
    box.append(p);
    list(box, 'arrows', s.arrows);
    list(box, 'goods', s.traders);
    list(box, 'gifts', s.gifts);
    for (const sc of s.scores) scoreDetails(box, sc);
    for (const r of s.returned) box.append(el('p', 'returned', r));
    if (s.comment !== null) box.append(el('blockquote', 'note', s.comment));
    list(box, 'extra', s.lines);
    // The final scoring the last move set off, apart from what the move itself scored.
    if (s.final_scores.length > 0) {
      box.append(el('h4', 'final', 'Final scoring'));
      for (const sc of s.final_scores) scoreDetails(box, sc);
      for (const r of s.final_returned) box.append(el('p', 'returned', r));
    }
    const b = line === 0 ? best.get(pos) : undefined;
    if (b && b.board) {
      const button = el('button', 'best', showBest ? 'show the move played' : 'show the best move found');
      button.type = 'button';
      button.id = 'toggle-best';
      button.addEventListener('click', () => {
        showBest = !showBest;
        drawBoard();
        showEvent();
      });
      box.append(button);
    }
  }

  function showScores() {
    const s = stepAt(line, pos);
    const now = byId('now');
    now.replaceChildren();
    data.players.forEach((p, seat) => {
      const li = el('li');
      li.append(swatch(seat), document.createTextNode(p.name + ': ' + (s ? s.after[seat] || 0 : 0)));
      now.append(li);
    });
  }

  // The move list: a row per turn, the current turn's events under it, and the variations
  // under the move they leave from (their moves shown while one is followed).
  const rows = [];
  const finalRows = [];
  function eventItem(s, l, k) {
    const li = el('li', 'ev');
    li.append(el('span', 'seq', s.seq));
    marks(li, s.marks);
    li.append(document.createTextNode(s.text));
    li.dataset.line = String(l);
    li.dataset.position = String(k);
    li.addEventListener('click', (e) => {
      e.stopPropagation();
      go(l, k);
    });
    return li;
  }
  function buildMoves() {
    const body = byId('moves').tBodies[0];
    data.turns.forEach((t, i) => {
      const tr = el('tr', 'turn');
      // The tile and its rotation share a cell, and a long name is cut with its whole in the
      // cell's tooltip, so the mark column stays inside the box (phone widths show the
      // player's colour only: the names are in the legend).
      const cells = [
        t.number,
        '',
        t.tile + ' ' + t.rotation,
        t.square,
        t.meeple,
        t.points ? '+' + t.points : '',
        t.glyphs,
      ];
      cells.forEach((c, j) => {
        const td = el('td', j === 5 ? 'num' : j === 6 ? 'glyph' : null, c);
        if (j === 1 && t.seat !== null) {
          td.title = playerName(t.seat);
          td.append(swatch(t.seat), el('span', 'name', playerName(t.seat)));
        }
        tr.append(td);
      });
      tr.dataset.turn = String(i);
      tr.addEventListener('click', () => go(0, t.last));
      const events = el('tr', 'events');
      const td = el('td');
      td.colSpan = 7;
      const ul = el('ul', 'events');
      for (let k = t.first; k < t.last; k++) ul.append(eventItem(data.steps[k], 0, k + 1));
      td.append(ul);
      events.append(td);
      events.hidden = true;
      body.append(tr, events);
      const vars = [];
      for (const v of t.variations) {
        const L = lines[v];
        const vr = el('tr', 'variation');
        const vd = el('td', null, '\u21b3 ' + L.title + ' (' + L.steps.length + (L.steps.length === 1 ? ' move)' : ' moves)'));
        vd.colSpan = 7;
        vr.append(vd);
        vr.addEventListener('click', () => go(v, L.from + 1));
        const ve = el('tr', 'events');
        const vtd = el('td');
        vtd.colSpan = 7;
        const vul = el('ul', 'events');
        L.steps.forEach((s, j) => vul.append(eventItem(s, v, L.from + j + 1)));
        vtd.append(vul);
        ve.append(vtd);
        ve.hidden = true;
        body.append(vr, ve);
        vars.push({ line: v, row: vr, events: ve });
      }
      rows.push({ turn: t, row: tr, events, vars });
    });
    // The final scoring after the last turn, one row per player and feature (the last turn's
    // points are its move's only); a click shows the end, the figures that scored still drawn.
    if (data.finals.length === 0) return;
    const head = el('tr', 'final-head');
    const hd = el('td', null, 'final scoring');
    hd.colSpan = 7;
    head.append(hd);
    body.append(head);
    for (const f of data.finals) {
      const tr = el('tr', 'final');
      const who = el('td');
      who.title = playerName(f.seat);
      who.append(swatch(f.seat), el('span', 'name', playerName(f.seat)));
      const what = el('td', null, f.what);
      what.colSpan = 3;
      tr.append(el('td'), who, what, el('td', 'num', '+' + f.points), el('td', 'glyph'));
      tr.addEventListener('click', () => go(0, data.steps.length));
      body.append(tr);
      finalRows.push(tr);
    }
  }
  // The turn that position k of the game belongs to.
  function turnOf(k) {
    for (let i = rows.length - 1; i >= 0; i--) {
      if (k > rows[i].turn.first) return i;
    }
    return 0;
  }
  function markMoves() {
    const here = turnOf(line === 0 ? pos : Math.min(pos, lines[line].from));
    rows.forEach((r, i) => {
      const current = i === here && line === 0;
      r.row.classList.toggle('current', current);
      r.events.hidden = !current;
      for (const v of r.vars) {
        v.row.classList.toggle('current', v.line === line);
        v.events.hidden = v.line !== line;
      }
    });
    const atEnd = line === 0 && pos === data.steps.length;
    for (const tr of finalRows) tr.classList.toggle('current', atEnd);
    for (const li of document.querySelectorAll('#moves li.ev')) {
      li.classList.toggle('current', li.dataset.line === String(line) && li.dataset.position === String(pos));
    }
    const r = rows[here];
    const v = r && r.vars.find((x) => x.line === line);
    // At the end, the final scoring's rows (after the last turn's) are the ones to see.
    const target = atEnd && finalRows.length > 0
      ? finalRows[finalRows.length - 1]
      : line === 0 ? r && r.row : v && v.row;
    if (target) keepInView(target);
  }
  // Scrolls the move list (never the page) so that the current row shows below its heading.
  function keepInView(row) {
    const box = row.closest('.moves');
    const c = box.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    const head = byId('moves').tHead.getBoundingClientRect().height;
    if (r.top < c.top + head) box.scrollTop -= c.top + head - r.top;
    else if (r.bottom > c.bottom) box.scrollTop += r.bottom - c.bottom;
  }

  // The graphs (the score graph, and the chance to win when the engine judged the game) and
  // their cursor lines: both share one horizontal scale.
  const GRAPHS = [['graph', 'cursor'], ['wingraph', 'wincursor']];

  function moveCursor() {
    const k = line === 0 ? pos : Math.min(pos, lines[line].from);
    for (const [graphId, cursorId] of GRAPHS) {
      const g = byId(graphId);
      const cursor = byId(cursorId);
      if (!g || !cursor) continue;
      const left = Number(g.dataset.left);
      const right = Number(g.dataset.right);
      const n = Number(g.dataset.positions);
      const width = g.viewBox.baseVal.width;
      const x = String(left + ((width - left - right) * k) / Math.max(n, 1));
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
  }

  function go(l, k) {
    showBest = false;
    line = l;
    pos = Math.max(0, Math.min(k, length(l)));
    const scrub = byId('scrub');
    scrub.max = String(length(line));
    scrub.value = String(pos);
    const s = stepAt(line, pos);
    byId('where').textContent =
      (s ? 'event ' + s.seq : 'start') + ' \u00b7 ' + pos + ' of ' + length(line);
    byId('back').hidden = line === 0;
    drawBoard();
    showEvent();
    showScores();
    markMoves();
    moveCursor();
  }

  function buildStatic() {
    // The players first (what a reader looks for in a list of tabs), then the game id.
    const names = data.players.map((p) => p.name);
    const who =
      names.length <= 1 ? names.join('') :
      names.length === 2 ? names[0] + ' vs ' + names[1] :
      names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
    const title = who ? who + ' \u00b7 ' + data.game : 'Game ' + data.game;
    document.title = title;
    byId('title').textContent = title;
    const setup = byId('setup');
    const players = el('li');
    players.append(el('strong', null, 'Players'), document.createTextNode(', in seat order: '));
    data.players.forEach((p, seat) => {
      if (seat > 0) players.append(document.createTextNode(', '));
      players.append(swatch(seat), document.createTextNode(p.name + ' (' + p.color + ')'));
    });
    setup.append(players);
    for (const [label, text] of data.setup) {
      const li = el('li');
      li.append(el('strong', null, label), document.createTextNode(': ' + text));
      setup.append(li);
    }
    const legend = byId('legend');
    const finals = data.steps.length ? data.steps[data.steps.length - 1].after : [];
    data.players.forEach((p, seat) => {
      const li = el('li');
      li.append(swatch(seat), document.createTextNode(p.name + ': ' + (finals[seat] || 0)));
      legend.append(li);
    });
    const end = byId('end');
    if (data.illegal !== null) end.append(el('p', 'illegal', data.illegal));
    end.append(el('h2', null, data.table.title));
    const table = el('table');
    const head = el('tr');
    head.append(el('th', null, 'player'), el('th', null, 'points'));
    table.append(el('thead'), el('tbody'));
    table.tHead.append(head);
    for (const r of data.table.rows) {
      const tr = el('tr', r.winner ? 'winner' : null);
      tr.append(el('td', null, r.name), el('td', 'num', r.points));
      table.tBodies[0].append(tr);
    }
    end.append(table);
    for (const s of data.sections) {
      end.append(el('h2', null, s.title));
      for (const p of s.paragraphs) end.append(el('p', null, p));
      list(end, 'items', s.items);
      if (s.table) {
        const t = el('table');
        const h = el('tr');
        for (const c of s.table.columns) h.append(el('th', null, c.name));
        t.append(el('thead'), el('tbody'));
        t.tHead.append(h);
        for (const row of s.table.rows) {
          const tr = el('tr');
          row.forEach((cell, i) => {
            const numeric = s.table.columns[i] && s.table.columns[i].numeric;
            tr.append(el('td', numeric ? 'num' : null, cell));
          });
          t.tBodies[0].append(tr);
        }
        // A table of many columns scrolls in its own box, never the page (phone widths).
        const box = el('div', 'wide');
        box.append(t);
        end.append(box);
      }
    }
  }

  function wire() {
    byId('first').addEventListener('click', () => go(line, 0));
    byId('prev').addEventListener('click', () => go(line, pos - 1));
    byId('next').addEventListener('click', () => go(line, pos + 1));
    byId('last').addEventListener('click', () => go(line, length(line)));
    byId('back').addEventListener('click', () => go(0, Math.min(pos, lines[line].from)));
    byId('scrub').addEventListener('input', (e) => go(line, Number(e.target.value)));
    document.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const moves = { ArrowRight: pos + 1, ArrowLeft: pos - 1, Home: 0, End: length(line) };
      if (!(e.key in moves)) return;
      e.preventDefault();
      go(line, moves[e.key]);
    });
    for (const [graphId] of GRAPHS) {
      const graph = byId(graphId);
      if (!graph) continue;
      graph.addEventListener('click', (e) => {
        const mark = e.target.closest('g.mark');
        if (mark) {
          go(0, Number(mark.dataset.position));
          return;
        }
        const box = graph.getBoundingClientRect();
        const width = graph.viewBox.baseVal.width;
        const x = ((e.clientX - box.left) * width) / box.width;
        const left = Number(graph.dataset.left);
        const right = Number(graph.dataset.right);
        const n = Number(graph.dataset.positions);
        go(0, Math.round(((x - left) * n) / (width - left - right)));
      });
    }
  }

  buildStatic();
  buildMoves();
  wire();
  go(0, data.start);
})();
