// pokeview site: moves between a game's turns by the terminal viewer's keys, draws the board
// of the turn and side shown, and filters the games list. It reads only its own page; every
// text it shows was escaped when the page was written, and it never builds markup from data
// (elements made one by one, text set with textContent only).
'use strict';

(function () {
  // Rows written as changes to an earlier row (board.py's `changes`) made whole again.
  function whole(rows) {
    const out = [];
    for (const row of rows) {
      if (row[0] >= 0) { out.push(row); continue; }
      const made = out[-1 - row[0]].slice();
      for (let k = 1; k < row.length; k += 2) made[row[k]] = row[k + 1];
      out.push(made);
    }
    return out;
  }

  // The board's data (pokeview/site/board.py): boards are lists of lines, a line is its
  // indent then runs, a run is a style (an index into classes) and its text.
  function boardDrawer(element, data) {
    const boards = {
      classes: data.classes, runs: data.runs, at: data.at,
      lines: whole(data.lines), boards: whole(data.boards),
    };
    function line(number) {
      const [indent, ...runs] = boards.lines[number];
      const div = document.createElement('div');
      if (indent) div.className = 'p' + indent;
      for (const run of runs) {
        const [style, text] = boards.runs[run];
        if (!style) { div.append(text); continue; }
        const span = document.createElement('span');
        span.className = boards.classes[style];
        span.textContent = text;
        div.append(span);
      }
      return div;
    }
    return function draw(view, index) {
      const number = boards.at[view][index];
      if (number < 0) element.replaceChildren('(no board: no side was asked to decide yet)');
      else element.replaceChildren(...boards.boards[number].map(line));
    };
  }

  // A prompt's repeated paragraphs and the battle log's lines it quotes
  // (pokeview/site/prompt_text.py) put back in place, as text.
  const logs = {};
  function logLines(side) {
    if (!logs[side]) {
      logs[side] = [];
      for (const pre of document.querySelectorAll('.side-' + side + ' > pre')) {
        if (pre.textContent) logs[side].push(...pre.textContent.split('\n'));
      }
    }
    return logs[side];
  }
  function restorePrompts(details) {
    for (const link of details.querySelectorAll('pre.prompt a[href^="#q"]')) {
      const copy = document.getElementById(link.getAttribute('href').slice(1));
      link.replaceWith(copy.textContent);
    }
    for (const link of details.querySelectorAll('pre.prompt a[data-w]')) {
      const [side, from, count] = link.dataset.w.split(' ');
      const lines = logLines(side).slice(Number(from), Number(from) + Number(count));
      link.replaceWith(lines.join('\n'));
    }
  }

  function gamePage() {
    const dataElement = document.getElementById('game-data');
    if (!dataElement) return;
    const data = JSON.parse(dataElement.textContent);
    const turns = data.turns;
    const drawBoard = boardDrawer(
      document.getElementById('board'),
      JSON.parse(document.getElementById('board-data').textContent),
    );
    const views = ['both', 'p1', 'p2'];
    let view = 0;
    let index = 0;
    let typed = '';
    const shown = document.getElementById('turn-shown');
    const sideButton = document.getElementById('switch-side');
    const gotoInput = document.getElementById('goto');
    document.body.classList.add('js');
    document.getElementById('controls').hidden = false;

    function show(position, updateHash) {
      index = Math.max(0, Math.min(turns.length - 1, position));
      for (const section of document.querySelectorAll('section.turn')) {
        section.classList.toggle('shown', section.id === 't' + turns[index]);
      }
      shown.textContent = 'turn ' + turns[index] + ' of ' + turns[turns.length - 1];
      drawBoard(views[view], index);
      if (updateHash) history.replaceState(null, '', '#t' + turns[index]);
    }
    function goToTurn(turn) {
      let position = turns.findIndex(function (t) { return t >= turn; });
      if (position < 0) position = turns.length - 1;
      show(position, true);
    }
    function switchSide() {
      view = (view + 1) % views.length;
      document.body.classList.remove('view-p1', 'view-p2');
      if (views[view] !== 'both') document.body.classList.add('view-' + views[view]);
      sideButton.textContent = 'side: ' + views[view];
      drawBoard(views[view], index);
    }
    function fromHash() {
      const match = /^#t(\d+)$/.exec(location.hash);
      if (match) { goToTurn(Number(match[1])); return; }
      // A link to a decision (`#p2-d9`, where a list of legal actions is): its turn, opened.
      const target = location.hash.length > 1 && document.getElementById(location.hash.slice(1));
      const section = target && target.closest('section.turn');
      if (!section) { show(0, false); return; }
      show(turns.indexOf(Number(section.id.slice(1))), false);
      for (const details of target.querySelectorAll('details')) details.open = true;
      target.scrollIntoView();
    }
    for (const details of document.querySelectorAll('section.turn details')) {
      details.addEventListener('toggle', function () { if (details.open) restorePrompts(details); });
    }
    for (const button of document.querySelectorAll('[data-go]')) {
      button.addEventListener('click', function () { show(index + Number(button.dataset.go), true); });
    }
    sideButton.addEventListener('click', switchSide);
    gotoInput.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && /^\d+$/.test(gotoInput.value)) goToTurn(Number(gotoInput.value));
    });
    document.addEventListener('keydown', function (event) {
      if (event.target === gotoInput || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'ArrowRight') show(index + 1, true);
      else if (event.key === 'ArrowLeft') show(index - 1, true);
      else if (event.key === 's') switchSide();
      else if (/^\d$/.test(event.key)) { typed += event.key; shown.textContent = 'go to turn ' + typed; }
      else if (event.key === 'Enter' && typed) { goToTurn(Number(typed)); typed = ''; }
      else if (event.key === 'Escape') { typed = ''; show(index, false); }
      else return;
      event.preventDefault();
    });
    window.addEventListener('hashchange', fromHash);
    fromHash();
  }

  // The games list: each filter's value is a key the rows carry (players by a digest of their
  // name); the filters live in the address, so a link can open the list filtered.
  function gamesList() {
    const form = document.getElementById('filters');
    if (!form) return;
    form.hidden = false;
    const rows = Array.from(document.querySelectorAll('#games tbody tr'));
    const selects = {};
    for (const select of form.querySelectorAll('select[data-filter]')) {
      selects[select.dataset.filter] = select;
    }
    const count = document.getElementById('shown-count');
    function keeps(row, filter, value) {
      const player = selects.player.value;
      if (filter === 'player') return row.dataset.player.split(' ').includes(value);
      if (filter === 'result' && value === 'player won') {
        return player !== '' && row.dataset.winner === player;
      }
      if (filter === 'result' && value === 'player lost') {
        return player !== '' && row.dataset.winner !== '' && row.dataset.winner !== player;
      }
      return row.dataset[filter] === value;
    }
    function apply() {
      // 'won/lost by the player chosen' mean nothing until a player is chosen.
      for (const option of selects.result.options) {
        if (option.value.startsWith('player ')) option.disabled = selects.player.value === '';
      }
      if (selects.result.selectedOptions[0].disabled) selects.result.value = '';
      let shownRows = 0;
      for (const row of rows) {
        const keep = Object.keys(selects).every(function (filter) {
          const value = selects[filter].value;
          return value === '' || keeps(row, filter, value);
        });
        row.hidden = !keep;
        if (keep) shownRows += 1;
      }
      count.textContent = shownRows + ' of ' + rows.length + ' games';
    }
    function fromHash() {
      const wanted = new URLSearchParams(location.hash.slice(1));
      for (const filter of Object.keys(selects)) {
        const select = selects[filter];
        const value = wanted.get(filter) || '';
        const known = Array.from(select.options).some(function (o) { return o.value === value; });
        select.value = known ? value : '';
      }
      apply();
    }
    function toHash() {
      const chosen = new URLSearchParams();
      for (const filter of Object.keys(selects)) {
        if (selects[filter].value) chosen.set(filter, selects[filter].value);
      }
      const text = chosen.toString();
      history.replaceState(null, '', text ? '#' + text : location.href.split('#')[0]);
      apply();
    }
    for (const filter of Object.keys(selects)) selects[filter].addEventListener('change', toHash);
    window.addEventListener('hashchange', fromHash);
    fromHash();
  }

  document.addEventListener('DOMContentLoaded', function () { gamePage(); gamesList(); });
})();
