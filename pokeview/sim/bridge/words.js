'use strict';
// One side's battle-log words: @pkmn/view's LogFormatter over that side's protocol, from its
// own perspective ("The opposing Iron Valiant used Close Combat!").
const {need} = require('./packages');

const ClientDex = need('@pkmn/dex').Dex;
const {Generations} = need('@pkmn/data');
const ClientBattle = need('@pkmn/client').Battle;
const {Protocol} = need('@pkmn/protocol');
const {LogFormatter} = need('@pkmn/view');

// @pkmn/client's Side.faint() clears a fainted Pokémon's Tera type (its client shows none on a
// fainted icon), so from the faint on nothing said that the side had used its Tera. pokeview
// keeps it beside the client's own field (`teraUsed`, read by snapshot.js): a wrapper here
// rather than a patched copy of the package, which would have to follow every upgrade.
const ClientSide = need('@pkmn/client').Side;
const clientFaint = ClientSide.prototype.faint;
/** @typedef {import('@pkmn/client').Pokemon & {teraUsed?: string}} ClientPokemon */
ClientSide.prototype.faint = function faint(/** @type {ClientPokemon} */ pokemon, /** @type {number} */ slot) {
  const tera = pokemon.terastallized;
  clientFaint.call(this, pokemon, slot);
  if (tera) pokemon.teraUsed = tera;
};

// The client must know whatever the simulator can field. @pkmn/data's default leaves out what
// is marked nonstandard or illegal, yet Showdown's gen 6 and 7 random battles field
// Floette-Eternal ("Unobtainable", "Illegal"): its snapshot failed the battle. Only the default's
// exclusion of the placeholder ability is kept.
const gens = new Generations(ClientDex, (d) => !!d.exists && !(d.kind === 'Ability' && d.id === 'noability'));

// Client markup to plain words: **bold** -> bold, ||exact HP||percentage|| -> percentage.
/** @param {string} text */
function plainText(text) {
  return text.replace(/\|\|[^|]*\|\|([^|]*)\|\|/g, '$1').replace(/\*\*/g, '');
}

class SideWords {
  // Tracks one side's knowledge with @pkmn/client and words each line from its perspective.
  // It is fed the side's protocol only: handing it Showdown's requests (battle.update) makes it
  // rebuild the team in request order and word switches and damage wrongly ("X, come back!"
  // for a Pokémon that had fainted, "lost 1%" for 11.4%).
  /** @param {import('./protocol').SideId} side */
  constructor(side) {
    this.battle = new ClientBattle(gens);
    this.formatter = new LogFormatter(side, this.battle);
  }
  /**
   * @param {string[]} lines
   * @returns {string[]}
   */
  render(lines) {
    const words = [];
    for (const line of lines) {
      let parsed;
      try {
        parsed = Protocol.parseBattleLine(line);
      } catch (e) {
        continue;
      }
      const {args, kwArgs} = parsed;
      let text = '';
      try {
        text = this.formatter.formatText(args, kwArgs) || '';
        this.battle.add(args, kwArgs);
      } catch (e) {
        // The words are a courtesy; a formatter gap must not stop the battle.
      }
      // PokéBench's log: each formatted chunk trimmed, so only its follow-up lines keep
      // their indent ("[The opposing Rotom's Levitate]" / "  It doesn't affect ...").
      for (const piece of plainText(text).trim().split('\n')) {
        if (piece.trim()) words.push(piece);
      }
    }
    return words;
  }
}

module.exports = {SideWords};
