'use strict';
// The puzzle page of `carc puzzles --format html`. Everything it shows comes from the JSON in
// #carc-data (text from the logs included) and is put into the page with textContent only;
// boards are the SVG fragments in #pool, written by carc-draw, which this script clones and
// never builds. The page's Content-Security-Policy runs this script only.
(function () {
  const data = JSON.parse(document.getElementById('carc-data').textContent);
  const byId = (id) => document.getElementById(id);
  const poolEl = byId('pool');
  if (!poolEl || data.puzzles.length === 0) return;
  const pool = Array.from(poolEl.children);
  let current = 0;
  // The try in progress: a square (index into the puzzle's squares), a rotation (index into
  // its rotations) and a move (index into the puzzle's moves).
  let square = -1;
  let rotation = 0;
  let revealed = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clones(ids) {
    return ids.map((i) => pool[i].cloneNode(true));
  }
  function percent(tenths) {
    return (tenths / 10).toFixed(1) + ' %';
  }
  function points(tenths) {
    return (tenths >= 0 ? '+' : '') + (tenths / 10).toFixed(1);
  }
  function puzzleTitle(p) {
    return 'Turn ' + p.turn + ' of ' + p.game + ' (event ' + p.seq + ') ' + p.mark;
  }

  function drawBoard() {
    const p = data.puzzles[current];
    const [tiles, view, marks, top] = p.at;
    const board = byId('board');
    board.setAttribute('viewBox', data.board.views[view]);
    byId('map').style.display = p.map ? '' : 'none';
    byId('tiles').replaceChildren(...clones(p.tiles.slice(0, tiles)));
    byId('marks').replaceChildren(...clones(data.board.frames[marks]));
    byId('top').replaceChildren(...clones(data.board.frames[top]));
    const squares = byId('squares');
    squares.replaceChildren();
    p.squares.forEach((s, k) => {
      const g = pool[s.fragment].cloneNode(true);
      g.dataset.square = String(k);
      g.classList.toggle('chosen', k === square);
      g.addEventListener('click', () => choose(k, 0));
      squares.append(g);
    });
    drawTry();
  }
  // The tile tried (faint, outlined) on its square, or the best move once revealed.
  function drawTry() {
    const p = data.puzzles[current];
    const group = byId('try');
    const board = byId('board');
    if (revealed && p.best !== null) {
      const [s, r] = placeOf(p, p.best);
      group.replaceChildren(...clones(p.squares[s].rotations[r].ghost));
      board.dataset.tried = 'best';
      return;
    }
    if (square < 0) {
      group.replaceChildren();
      board.dataset.tried = '';
      return;
    }
    const r = p.squares[square].rotations[rotation];
    group.replaceChildren(...clones(r.ghost));
    board.dataset.tried = p.squares[square].x + ',' + p.squares[square].y + '@' + r.degrees;
  }
  // The square and rotation of move `m`.
  function placeOf(p, m) {
    for (let s = 0; s < p.squares.length; s++) {
      const rs = p.squares[s].rotations;
      for (let r = 0; r < rs.length; r++) if (rs[r].moves.includes(m)) return [s, r];
    }
    return [0, 0];
  }

  function fillRest() {
    const p = data.puzzles[current];
    const rest = byId('rest');
    rest.replaceChildren();
    if (square < 0) {
      rest.disabled = true;
      byId('rotation').textContent = '';
      return;
    }
    rest.disabled = false;
    const r = p.squares[square].rotations[rotation];
    for (const m of r.moves) {
      const o = el('option', null, p.moves[m]);
      o.value = String(m);
      rest.append(o);
    }
    byId('rotation').textContent = 'rotated ' + r.degrees + '\u00b0';
  }

  function choose(k, r) {
    square = k;
    rotation = r;
    byId('square').value = String(k);
    byId('verdict').replaceChildren();
    fillRest();
    drawBoard();
  }
  function rotate() {
    if (square < 0) return;
    const n = data.puzzles[current].squares[square].rotations.length;
    choose(square, (rotation + 1) % n);
  }

  // How the tried move compares with the moves the judge measured: the best and the move
  // played. Any other move was not measured, and the page says so rather than guess.
  function judge() {
    const box = byId('verdict');
    box.replaceChildren();
    const p = data.puzzles[current];
    if (square < 0) {
      box.append(el('p', 'hint', 'Choose a square first.'));
      return;
    }
    const m = Number(byId('rest').value);
    const tried = 'You tried: tile ' + p.tile + ' at (' + p.squares[square].x + ',' +
      p.squares[square].y + ') rotated ' + p.squares[square].rotations[rotation].degrees +
      '\u00b0, ' + p.moves[m] + '.';
    box.append(el('p', null, tried));
    let verdict;
    let kind;
    const measured = p.best_win !== null
      ? (win, value) => percent(win) + ' chance to win (' + points(value) + ' expected margin)'
      : (win, value) => points(value) + ' expected margin';
    if (m === p.best) {
      kind = 'best';
      verdict = 'The best move found: ' + measured(p.best_win, p.best_value) + '.';
    } else if (m === p.played) {
      kind = 'played';
      verdict = 'The move played in the game: ' + measured(p.played_win, p.played_value) +
        ', against ' + measured(p.best_win, p.best_value) + ' for the best move found' +
        (p.best_win !== null ? ' (' + percent(p.best_win - p.played_win) + ' lost).' : '.');
    } else {
      kind = 'unjudged';
      verdict = 'Not among the judged moves: the judge measured only its best move and the move played, so how close this one comes is not known.';
    }
    const v = el('p', 'verdict-' + kind, verdict);
    box.dataset.kind = kind;
    box.append(v);
  }

  function reveal() {
    revealed = !revealed;
    const p = data.puzzles[current];
    const box = byId('answer');
    box.replaceChildren();
    box.hidden = !revealed;
    byId('reveal').textContent = revealed ? 'hide the best move' : 'show the best move';
    if (revealed) {
      box.append(el('p', null, 'Best move found: ' + p.best_text + '.'));
      box.append(el('p', null, 'Played: ' + p.played_text + '.'));
      if (p.line.length > 1) {
        box.append(el('p', null, 'Expected line:'));
        const ol = el('ol', 'line');
        for (const l of p.line) ol.append(el('li', null, l));
        box.append(ol);
      }
    }
    drawTry();
  }

  function show(k) {
    current = Math.max(0, Math.min(k, data.puzzles.length - 1));
    square = -1;
    rotation = 0;
    revealed = true;
    reveal();
    const p = data.puzzles[current];
    const box = byId('puzzle');
    box.replaceChildren();
    box.append(el('h3', null, puzzleTitle(p)));
    box.append(el('p', 'source', p.source));
    const me = p.players[p.seat];
    box.append(el('p', 'task', (me ? me.name : 'seat ' + p.seat) + ' drew tile ' + p.tile +
      '. Find the best move.'));
    const now = byId('now');
    now.replaceChildren();
    p.players.forEach((pl) => {
      const li = el('li');
      li.append(el('span', 'swatch c-' + pl.color), document.createTextNode(pl.name + ': ' + pl.score));
      now.append(li);
    });
    const select = byId('square');
    select.replaceChildren();
    const none = el('option', null, '\u2014');
    none.value = '-1';
    select.append(none);
    p.squares.forEach((s, i) => {
      const o = el('option', null, '(' + s.x + ',' + s.y + ')');
      o.value = String(i);
      select.append(o);
    });
    select.value = '-1';
    byId('verdict').replaceChildren();
    fillRest();
    drawBoard();
    for (const li of byId('list').children) {
      li.classList.toggle('current', li.dataset.puzzle === String(current));
    }
  }

  function build() {
    const who = data.player;
    document.title = 'Puzzles: ' + who;
    byId('title').textContent = 'Puzzles: ' + who + ' (' + data.puzzles.length +
      (data.puzzles.length === 1 ? ' position)' : ' positions)');
    const list = byId('list');
    data.puzzles.forEach((p, k) => {
      const li = el('li', null, puzzleTitle(p));
      li.dataset.puzzle = String(k);
      li.tabIndex = 0;
      li.addEventListener('click', () => show(k));
      li.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') show(k);
      });
      list.append(li);
    });
    byId('square').addEventListener('change', (e) => {
      const k = Number(e.target.value);
      if (k < 0) {
        square = -1;
        fillRest();
        drawBoard();
      } else choose(k, 0);
    });
    byId('rotate').addEventListener('click', rotate);
    byId('find').addEventListener('submit', (e) => {
      e.preventDefault();
      judge();
    });
    byId('reveal').addEventListener('click', reveal);
    document.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      const typing = t && (t.tagName === 'SELECT' || t.tagName === 'INPUT');
      if (e.key === 'r' || e.key === 'R') {
        e.preventDefault();
        rotate();
      } else if ((e.key === 'n' || e.key === 'N') && !typing) {
        show(current + 1);
      } else if ((e.key === 'p' || e.key === 'P') && !typing) {
        show(current - 1);
      } else if (e.key === 'Enter' && (!t || t === document.body)) {
        e.preventDefault();
        judge();
      }
    });
  }

  build();
  show(0);
})();
