'use strict';
const {FORMAT, lib} = require('./packages');

/**
 * @typedef {import('./sample').Mon} Mon
 * @typedef {import('./sample').View} View
 * @typedef {'p1' | 'p2'} SideId
 * @typedef {{m: Mon, slot: number}} Placed  a member, and its slot in the request's order
 *
 * One determinization: the battle as the search supposes it, the foe's unseen parts sampled.
 * @typedef {{
 *   index: number, me: SideId, foe: SideId, ownMons: Mon[], ownTeam: Placed[], foeTeam: Placed[],
 *   field: ReturnType<typeof fieldOf>, hidden: number,
 * }} Determinization
 */

// -- the determinized battle -------------------------------------------------------------------

/**
 * @param {Mon[]} mons
 * @returns {Placed[]}
 */
function leadFirst(mons) {
  // Showdown sends the first of each team out: put the active (or the first one standing) first.
  let lead = mons.findIndex((m) => m.active && !m.fainted);
  if (lead < 0) lead = mons.findIndex((m) => !m.fainted);
  if (lead <= 0) return mons.map((m, i) => ({m, slot: i}));
  const order = [lead, ...mons.keys()].filter((v, i, a) => a.indexOf(v) === i);
  return order.map((i) => ({m: mons[i], slot: i}));
}

/**
 * @param {View} view
 * @param {SideId} sideId
 * @param {SideId} foeId
 */
function fieldOf(view, sideId, foeId) {
  const f = view.field;
  const conditions = (/** @type {import('@pkmn/client').Side | undefined} */ side) => (side ? Object.values(side.sideConditions).map((c) => ({id: lib.dex.conditions.get(c.name).id, level: c.level || 1})) : []);
  return {
    weather: f.weather ? lib.dex.conditions.get(f.weather).id : '',
    terrain: f.terrain ? lib.dex.conditions.get(f.terrain).id : '',
    pseudo: Object.keys(f.pseudoWeather || {}).map((id) => lib.dex.conditions.get(id).id),
    sides: {[sideId]: conditions(view[sideId]), [foeId]: conditions(view[foeId])},
  };
}

/**
 * @param {import('pokemon-showdown/dist/sim/battle').Battle} battle
 * @param {import('pokemon-showdown/dist/sim/pokemon').Pokemon} mon
 * @param {Mon} st
 * @param {boolean} isOwn
 */
function patchMon(battle, mon, st, isOwn) {
  if (isOwn && st.stats) {
    mon.storedStats = {...mon.storedStats, ...st.stats};
    if (st.maxhp) mon.maxhp = mon.baseMaxhp = st.maxhp;
  }
  if (st.fainted) {
    mon.hp = 0;
    mon.fainted = true;
    mon.status = 'fnt';
    return;
  }
  // Own members have exact HP (the request's), the foe's a fraction (what the side saw).
  mon.hp = isOwn ? Math.max(1, Math.min(Number(st.hp), mon.maxhp)) : Math.max(1, Math.round(Number(st.hpFraction) * mon.maxhp));
  const item = lib.dex.items.get(st.item || '').id;
  if (mon.item !== item) {
    mon.item = item;
    mon.itemState = battle.initEffectState({id: item, target: mon});
  }
  if (st.status && mon.status !== st.status) mon.setStatus(st.status, mon, null, true);
  if (!st.status && mon.status) mon.clearStatus();
  if (mon.isActive) {
    for (const stat of Object.keys(mon.boosts)) mon.boosts[stat] = st.boosts[stat] || 0;
    for (const id of st.volatiles || []) {
      if (!mon.volatiles[id]) mon.addVolatile(id, mon.side.foe.active[0] || mon); // seeded by the foe
    }
  }
}

/**
 * @param {Determinization} det
 * @param {number[]} nodeSeed
 */
function build(det, nodeSeed) {
  const {me, foe} = det;
  /** @type {{[option: string]: any}} */
  const options = {formatid: FORMAT, seed: nodeSeed};
  options[me] = {name: me, team: det.ownTeam.map((x) => x.m.set)};
  options[foe] = {name: foe, team: det.foeTeam.map((x) => x.m.set)};
  const battle = new lib.Battle(/** @type {any} */ (options)); // the sets leave out what the simulator fills in
  /** @type {[SideId, Placed[], boolean][]} */
  const teams = [[me, det.ownTeam, true], [foe, det.foeTeam, false]];
  for (const [sideId, team, isOwn] of teams) {
    const side = battle.getSide(sideId);
    let left = 0;
    let teraUsed = false;
    team.forEach(({m}, i) => {
      const mon = side.pokemon[i];
      patchMon(battle, mon, m, isOwn);
      if (!m.fainted) left++;
      if (m.terastallized) {
        teraUsed = true;
        mon.teraType = m.terastallized;
        if (mon.isActive) {
          battle.actions.terastallize(mon);
        } else {
          mon.terastallized = m.terastallized;
          mon.apparentType = m.terastallized;
        }
      }
    });
    side.pokemonLeft = left;
    if (teraUsed) for (const mon of side.pokemon) mon.canTerastallize = null;
    for (const c of det.field.sides[sideId] || []) {
      for (let n = 0; n < c.level; n++) side.addSideCondition(c.id, 'debug');
    }
  }
  const field = battle.field;
  if (field.weather !== det.field.weather) {
    field.clearWeather();
    if (det.field.weather) field.setWeather(det.field.weather, 'debug');
  }
  if (field.terrain !== det.field.terrain) {
    field.clearTerrain();
    if (det.field.terrain) field.setTerrain(det.field.terrain, 'debug');
  }
  for (const id of det.field.pseudo) field.addPseudoWeather(id, 'debug');
  return battle;
}

module.exports = {build, leadFirst, fieldOf};
