// pokeview site: moves between a game's turns by the terminal viewer's keys and filters the
// games list. It reads only its own page; every text it shows was escaped when the page was
// written, and it never builds markup from data (textContent only).
'use strict';

(function () {
  function gamePage() {
    const dataElement = document.getElementById('game-data');
    if (!dataElement) return;
    const data = JSON.parse(dataElement.textContent);
    const turns = data.turns;
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
    }
    function fromHash() {
      const match = /^#t(\d+)$/.exec(location.hash);
      if (match) goToTurn(Number(match[1]));
      else show(0, false);
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
