'use strict';
// The stdin side of pokeview's Node children (the bridge and the search host): one JSON message
// a line. Each message goes to handle(msg); a line that is not JSON, or a handler that throws,
// goes to fail(err, msg) (msg undefined when the line did not parse). The process ends when
// Python closes stdin. What the messages of one read answered is written at once, after them.
const {flush} = require('./output');

/**
 * @param {(msg: any) => void} handle  each message as JSON.parse gave it
 * @param {(err: unknown, msg: any) => void} fail
 */
function readMessages(handle, fail) {
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let msg;
      try {
        msg = JSON.parse(line);
        handle(msg);
      } catch (err) {
        fail(err, msg);
      }
    }
    flush();
  });
  process.stdin.on('end', () => {
    flush();
    process.exit(0);
  });
}

module.exports = {readMessages};
