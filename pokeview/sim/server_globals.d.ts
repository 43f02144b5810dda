// The globals Showdown's server gives the plugin (server_plugin.js). Showdown ships types for its
// simulator (dist/sim) only: Teams and Dex have theirs; the server's own objects are declared
// here as what they are to the checker, untyped.
declare const Teams: typeof import('pokemon-showdown/dist/sim/teams').Teams;
declare const Dex: typeof import('pokemon-showdown/dist/sim/dex').Dex;
declare function toID(text: unknown): string;
declare const Users: any;
declare const Rooms: any;
declare const Ladders: any;
