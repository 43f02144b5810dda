// ESLint for pokeview's JavaScript (the bridge, the search, their tests): CommonJS on Node.
const js = require('@eslint/js');
const globals = require('globals');

module.exports = [
  {ignores: ['node_modules/**', 'pokeview/sim/node/**', '.venv/**']},
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {ecmaVersion: 2022, sourceType: 'commonjs', globals: globals.node},
    rules: {'no-unused-vars': ['error', {args: 'none', caughtErrors: 'none'}]},
  },
  {
    // Loaded inside Showdown's server, which provides these as globals; its control-character
    // pattern is on purpose (it strips them from untrusted names).
    files: ['pokeview/sim/server_plugin.js'],
    languageOptions: {
      globals: {Teams: 'readonly', Dex: 'readonly', toID: 'readonly', Users: 'readonly', Rooms: 'readonly', Ladders: 'readonly'},
    },
    rules: {'no-control-regex': 'off'},
  },
  {
    // The static site's own script runs in the browser, as a classic script.
    files: ['pokeview/site_files/*.js'],
    languageOptions: {sourceType: 'script', globals: globals.browser},
  },
];
