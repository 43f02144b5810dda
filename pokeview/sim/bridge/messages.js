'use strict';
// The bridge's commands and replies, as JSDoc types for `tsc --checkJs`. They match the msgspec
// structs of pokeview/game/bridge.py, where they are declared for Python; the integration test
// tests/integration/test_bridge_messages.py sends each command to this bridge and decodes each
// reply strictly with those. A change here is a change there.

/**
 * @typedef {{name?: string, team?: string, seed?: string}} PlayerSpec
 * @typedef {{seed: string, sides: string[], turn_limit: number, whole?: boolean, bots?: {[side: string]: string}}} AutoplaySpec
 *
 * @typedef {{op: 'info', battle?: string}} InfoCommand
 * @typedef {{
 *   op: 'start', battle: string, format?: string, seed?: string | number[],
 *   players?: {[side: string]: PlayerSpec}, validate?: boolean, inputlog?: string[],
 *   quiet?: boolean, omniscient?: boolean, whole?: boolean, words?: string[] | null,
 *   autoplay?: AutoplaySpec | null,
 * }} StartCommand
 * @typedef {{op: 'choose', battle: string, side: string, choice: string}} ChooseCommand
 * @typedef {{op: 'tie', battle: string}} TieCommand
 * @typedef {{op: 'end', battle: string, line: string}} EndCommand
 * @typedef {{op: 'close', battle: string}} CloseCommand
 * @typedef {{op: 'follow', battle: string, lines?: string[]}} FollowCommand
 * @typedef {{op: 'debug-crash', battle: string}} DebugCrashCommand
 * @typedef {InfoCommand | StartCommand | ChooseCommand | TieCommand | EndCommand | CloseCommand |
 *   FollowCommand | DebugCrashCommand} Command
 */

/**
 * A side's update in a step, as the bridge builds it (output.js writes it with the request
 * spliced in as Showdown's JSON text, and the differences under snake_case names).
 * @typedef {{
 *   lines: string[], text: string[], request: string | null, error: string | null,
 *   state: object | null, requestDelta?: unknown[], stateDelta?: unknown[],
 *   chosen?: {choice: string, ms: number}, requestObject?: object,
 * }} SideUpdate  (`chosen`: the choice the bridge made and sent for this request; `requestObject`,
 *   not sent: the request as an object, when the bridge has it)
 *
 * @typedef {{winner: string | null, turns: number}} Ending
 * @typedef {{line: number, input: string, error: string}} Stopped
 * @typedef {{
 *   battle: string, type: 'step', sides: {[side: string]: SideUpdate}, spectator: string[],
 *   input: string[], end: Ending | null, stopped?: Stopped | null,
 * }} Step
 *
 * @typedef {{lines: string[], text: {[side: string]: string[]}, state: {[side: string]: object}}} Piece
 *
 * @typedef {{type: 'ready', showdown: string, pid: number}} ReadyReply
 * @typedef {{type: 'info', showdown: string, battles: number}} InfoReply
 * @typedef {{battle: string, type: 'followed', pieces: Piece[]}} FollowedReply
 * @typedef {{battle: string | null, type: 'crash', message: string}} CrashReply
 * @typedef {{
 *   battle: string, type: 'played', input: string[], spectator: string[], end: Ending | null,
 *   decisions: [string, number][], stopped: string | null,
 * }} PlayedReply  (a game played through by itself (whole.js): `end` null where it stopped)
 * @typedef {ReadyReply | InfoReply | Step | FollowedReply | PlayedReply | CrashReply} Reply
 */

module.exports = {};
