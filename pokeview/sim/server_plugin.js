'use strict';
// pokeview's part of its local Showdown server (`pokeview server`), loaded by the config.js that
// pokeview/sim/server.py writes. Any program on the machine, and any page open in the user's
// browser, can reach a loopback port, so nothing a client sends is trusted:
//  - pokeview's host user (its own client, which plays pokeview's side) logs in with a secret made
//    at each start and known to pokeview's processes only (POKEVIEW_HOST_SECRET here, a file only
//    the user can read for them). Without it nobody takes the host's name, even with the server's
//    --no-security, which lets a guest take any other name.
//  - /pokeviewbattle, the host's one power, takes fields, not lines: the battle's opening lines
//    are built here from fields checked one by one, so the only lines a client's words reach the
//    simulator in are a seat's choices (/choose, as in any battle); never `>eval` or the like.
//  - requests a browser makes for a page (they carry an Origin, or Sec-Fetch-Site) are refused.

const crypto = require('crypto');
const path = require('path');

const SECRET_VARIABLE = 'POKEVIEW_HOST_SECRET';
/** @typedef {'p1' | 'p2'} Slot */
/** @type {Slot[]} */
const SIDES = ['p1', 'p2'];
/** A user, room or connection of Showdown's server: it ships no types for them. @typedef {any} ServerObject */

/** @param {unknown} text */
function digest(text) {
  return crypto.createHash('sha256').update(String(text)).digest();
}

/**
 * @param {unknown} given
 * @param {string | undefined} secret
 */
function sameSecret(given, secret) {
  // Compared as digests: equal lengths for timingSafeEqual, and no time told about either.
  return !!secret && crypto.timingSafeEqual(digest(given), digest(secret));
}

// --- requests from web pages -------------------------------------------------------------------

/** @param {import('http').IncomingMessage} request */
function fromAPage(request) {
  // A browser sends Origin with every websocket and every POST a page makes, and Sec-Fetch-Site
  // (other than "none", a person typing the address) with everything else; programs send neither.
  const headers = request.headers || {};
  if (headers.origin !== undefined) return true;
  const site = headers['sec-fetch-site'];
  return site !== undefined && site !== 'none';
}

const REFUSAL = 'pokeview: this server takes no requests from web pages\n';

/** @param {import('http').Server} httpServer */
function refusePages(httpServer) {
  // In front of every listener SockJS and Showdown put on the HTTP server (the websocket upgrade
  // and SockJS's HTTP fallbacks), so that a page's request reaches none of them.
  for (const event of ['request', 'upgrade']) {
    const listeners = httpServer.listeners(event);
    httpServer.removeAllListeners(event);
    httpServer.on(event, /** @this {unknown} */ function (/** @type {import('http').IncomingMessage} */ request, /** @type {any[]} */ ...rest) {
      if (!fromAPage(request)) {
        for (const listener of listeners) listener.call(this, request, ...rest);
      } else if (event === 'request') {
        rest[0].writeHead(403, {'Content-Type': 'text/plain'});
        rest[0].end(REFUSAL);
      } else {
        rest[0].end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n' +
          `Content-Length: ${Buffer.byteLength(REFUSAL)}\r\n\r\n${REFUSAL}`);
      }
    });
  }
}

function guardSockJS() {
  // Showdown's socket processes load this config before they create their SockJS server, which
  // has no hook for refusing a request: wrap its installHandlers. (Showdown runs from its own
  // folder, so this resolves the SockJS that dist/server/sockets.js requires.)
  let sockjs;
  try {
    sockjs = require(require.resolve('sockjs', {paths: [path.join(process.cwd(), 'dist', 'server')]}));
  } catch {
    return; // no SockJS beside it: no server to guard in this process either
  }
  if (sockjs.pokeviewGuarded) return;
  const createServer = sockjs.createServer;
  sockjs.createServer = /** @this {unknown} */ function (/** @type {unknown[]} */ ...args) {
    const server = createServer.apply(this, args);
    const install = server.installHandlers;
    server.installHandlers = /** @this {unknown} */ function (/** @type {import('http').Server} */ httpServer, /** @type {unknown[]} */ ...more) {
      const result = install.call(this, httpServer, ...more);
      refusePages(httpServer);
      return result;
    };
    return server;
  };
  sockjs.pokeviewGuarded = true;
}

// --- the battle's fields -----------------------------------------------------------------------

class Refused extends Error {}

/**
 * @param {string} what
 * @returns {never}
 */
function refuse(what) {
  throw new Refused(what);
}

/**
 * @param {unknown} value
 * @returns {value is {[key: string]: any}}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {object} object
 * @param {string[]} allowed
 * @param {string} where
 */
function onlyKeys(object, allowed, where) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) refuse(`${where} has a field pokeview does not send (${JSON.stringify(key).slice(0, 40)})`);
  }
}

/**
 * @param {unknown} seed
 * @param {string} what
 * @returns {string | number[]}
 */
function checkedSeed(seed, what) {
  // The forms Showdown's PRNG takes: sodium or gen5 and hex digits, or four 16-bit numbers.
  if (Array.isArray(seed) && seed.length === 4 &&
      seed.every((n) => Number.isInteger(n) && n >= 0 && n < 65536)) return seed;
  if (typeof seed === 'string' && (/^sodium,(?:[0-9a-f]{32}|[0-9a-f]{64})$/.test(seed) ||
      /^gen5,[0-9a-f]{16}$/.test(seed) || /^\d{1,5}(?:,\d{1,5}){3}$/.test(seed))) return seed;
  refuse(`${what} is not a seed (sodium,HEX, gen5,HEX or four numbers)`);
}

/**
 * @param {unknown} team
 * @param {string} slot
 * @returns {string}
 */
function checkedTeam(team, slot) {
  if (typeof team !== 'string' || !team || team.length > 100000) refuse(`the team for ${slot} is not a packed team`);
  if (/[\x00-\x1f\x7f]/.test(team)) refuse(`the team for ${slot} holds a control character (a packed team is one line)`);
  let sets;
  try {
    sets = Teams.unpack(team);
  } catch {
    sets = null; // refused below, as any text that is no packed team
  }
  if (!sets || !sets.length || sets.length > 24 || sets.some((set) => !set || !set.species)) {
    refuse(`the team for ${slot} is not a packed team`);
  }
  return team;
}

/**
 * A battle's fields, checked one by one.
 * @typedef {{team?: string, seed?: string | number[]}} Seat
 * @typedef {{format: string, seed: string | number[], user: string, host: Slot, seats: {[slot: string]: Seat}}} Battle
 */

/**
 * @param {unknown} spec
 * @returns {Battle}
 */
function checkedBattle(spec) {
  // What /pokeviewbattle takes: {format, seed, user, host, seats: {p1: {team | seed}, p2: ...}}.
  if (!isObject(spec)) refuse('the battle is not a JSON object');
  onlyKeys(spec, ['format', 'seed', 'user', 'host', 'seats'], 'the battle');
  const {format, user, host, seats} = spec;
  if (typeof format !== 'string' || !/^[a-z0-9]{1,60}$/.test(format)) refuse('the format is not a format id');
  const dexFormat = Dex.formats.get(format);
  if (!dexFormat.exists || dexFormat.effectType !== 'Format') refuse(`unknown format '${format}'`);
  if (dexFormat.gameType && dexFormat.gameType !== 'singles') refuse(`format '${format}' is not singles`);
  const seed = checkedSeed(spec.seed, 'the battle seed');
  if (typeof user !== 'string' || user.length > 18 || !toID(user)) refuse('the user is not a user name');
  if (!SIDES.includes(host)) refuse("the host's seat is not p1 or p2");
  if (!isObject(seats)) refuse('the seats are not a JSON object');
  onlyKeys(seats, SIDES, 'the seats');
  /** @type {{[slot: string]: Seat}} */
  const checkedSeats = {};
  for (const slot of SIDES) {
    const seat = seats[slot] === undefined ? {} : seats[slot];
    if (!isObject(seat)) refuse(`the seat ${slot} is not a JSON object`);
    onlyKeys(seat, ['team', 'seed'], `the seat ${slot}`);
    if (seat.team !== undefined && seat.seed !== undefined) refuse(`the seat ${slot} has both a team and a team seed`);
    if (seat.team !== undefined) {
      checkedSeats[slot] = {team: checkedTeam(seat.team, slot)};
    } else if (!dexFormat.team) {
      refuse(`format '${format}' needs a team for each seat`);
    } else {
      checkedSeats[slot] = seat.seed === undefined ? {} : {seed: checkedSeed(seat.seed, `the team seed for ${slot}`)};
    }
  }
  return {format, seed, user, host, seats: checkedSeats};
}

/**
 * @param {Battle} battle
 * @param {{[slot: string]: string}} names
 */
function openingLines(battle, names) {
  // As the bridge writes them (pokeview/sim/bridge/start.js), with each seat's user name: the
  // server's input log then starts with the bridge game's very >start line.
  const lines = [`>start ${JSON.stringify({formatid: battle.format, seed: battle.seed})}`];
  for (const slot of SIDES) {
    lines.push(`>player ${slot} ${JSON.stringify({name: names[slot], ...battle.seats[slot]})}`);
  }
  // JSON cannot hold a raw newline; kept as the last word on what reaches the simulator.
  if (lines.some((line) => /[\r\n]/.test(line))) refuse('a line would hold a newline');
  return lines;
}

// --- the plugin --------------------------------------------------------------------------------

/** @param {{host: string}} options */
module.exports = function pokeviewPlugin({host}) {
  const secret = process.env[SECRET_VARIABLE];
  // Showdown's simulator and socket processes are started from this one later: they need no
  // secret, so they do not inherit it.
  delete process.env[SECRET_VARIABLE];
  guardSockJS();

  const reserved = new Set([host]);
  const hosts = new WeakSet(); // the users who logged in with the secret
  const pending = new Map(); // the invited user's id -> the checked battle
  const isHost = (/** @type {ServerObject} */ user) => user.id === host && hosts.has(user);

  function guardNames() {
    // Every name a client asks for (/trn) passes User#validateToken; with --no-security it lets
    // any guest in without a token. A reserved name now needs the secret as that token.
    const proto = Users.User.prototype;
    if (proto.pokeviewGuarded) return;
    const validateToken = proto.validateToken;
    /** @type {(this: ServerObject, token: string, name: string, userid: string, connection: ServerObject) => Promise<string | null>} */
    proto.validateToken = async function (token, name, userid, connection) {
      if (!reserved.has(userid)) return validateToken.call(this, token, name, userid, connection);
      if (!sameSecret(token, secret)) {
        this.send(`|nametaken|${name}|This name is pokeview's own: it needs the secret of this server's start.`);
        return null;
      }
      hosts.add(this);
      return '1'; // an unregistered name, as any guest's (nothing more is granted)
    };
    proto.pokeviewGuarded = true;
  }

  return {
    // Called when Showdown loads its chat plugins, which it does before it reads any message.
    start() {
      guardNames();
    },
    // After every login: a reserved name held by a user who did not give the secret (no known way
    // there, but a rename that bypasses the token) is taken back at once.
    /** @param {ServerObject} user */
    loginfilter(user) {
      if (reserved.has(user.id) && !hosts.has(user)) user.resetName(true);
    },
    commands: {
      // A battle whose seed, teams and seats pokeview chose, against a program that joins it as
      // any bot joins a challenge: the outside user gets an ordinary challenge
      // (`/challenge FORMAT|FORMAT|||`); when it accepts, the battle starts from the lines built
      // here. As in a challenge's battle, each >player line is its own write and both users are
      // in the room before the battle's first line: bots tell their side from the first
      // |player| line.
      /**
       * @param {string} target
       * @param {ServerObject} room
       * @param {ServerObject} user
       * @param {ServerObject} connection
       */
      pokeviewbattle(target, room, user, connection) {
        if (!isHost(user)) return connection.popup("/pokeviewbattle is for pokeview's host only");
        let battle;
        try {
          let spec;
          try {
            spec = JSON.parse(target);
          } catch {
            refuse('the battle is not JSON');
          }
          battle = checkedBattle(spec);
        } catch (err) {
          if (err instanceof Refused) return connection.popup(`pokeview battle refused: ${err.message}`);
          throw err;
        }
        const other = Users.get(battle.user);
        if (!other || !other.connected) {
          return connection.popup(`pokeview: the user '${battle.user}' was not found`);
        }
        if (reserved.has(other.id)) return connection.popup('pokeview battle refused: the user is pokeview\'s own');
        for (const roomid of user.games) { // accepted already: the battle is on its way
          const game = Rooms.get(roomid)?.battle;
          if (game && !game.ended && game.playerTable[other.id]) return;
        }
        const old = Ladders.challenges.search(user.id, other.id);
        if (old) Ladders.challenges.remove(old, false);
        pending.set(other.id, battle);
        const ready = new Ladders.BattleReady(user.id, battle.format, user.battleSettings);
        Ladders.challenges.add(new Ladders.BattleInvite(user.id, other.id, ready, {
          acceptCommand: `/pokeviewaccept ${user.id}`,
        }));
      },
      /**
       * @this {ServerObject}
       * @param {string} target
       * @param {ServerObject} room
       * @param {ServerObject} user
       * @param {ServerObject} connection
       */
      pokeviewaccept(target, room, user, connection) {
        const hostUser = Ladders.challenges.accept(this); // the challenger, or Showdown's error
        const battle = pending.get(user.id);
        pending.delete(user.id);
        if (!battle || !isHost(hostUser)) {
          return connection.popup('this pokeview battle is gone');
        }
        /** @type {{[slot: string]: ServerObject}} */
        const users = {p1: user, p2: user};
        users[battle.host] = hostUser;
        const [start, ...seats] = openingLines(battle, {p1: users.p1.name, p2: users.p2.name});
        const battleRoom = Rooms.createBattle({format: battle.format, players: [], inputLog: start});
        if (!battleRoom) return connection.popup('the server would not start the battle');
        const game = battleRoom.battle;
        for (const line of seats) void game.stream.write(line);
        for (const slot of SIDES) {
          game[slot].name = users[slot].name;
          game[slot].hasTeam = true;
        }
        battleRoom.title = `${users.p1.name} vs. ${users.p2.name}`;
        // pokeview's host first: a bot reading the first |player| line naming its opponent then
        // finds the opponent's seat in it, whichever seat that is.
        const theirs = battle.host === 'p1' ? 'p2' : 'p1';
        for (const slot of [battle.host, theirs]) {
          game[slot].invite = users[slot].id;
          game.joinGame(users[slot], slot);
        }
        for (const slot of [battle.host, theirs]) users[slot].joinRoom(battleRoom);
        battleRoom.update(); // the seats' |player| lines now, on their own, before anything else
      },
    },
  };
};
