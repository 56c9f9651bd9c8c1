// validate.js — run the Khronos glTF validator on .glb/.gltf files (external .bin files are
// read from beside the .gltf). Prints one line per file:
//   FILE: errors N warnings N infos N hints N [codes of the errors and warnings]
// and exits 1 if any file has an error or a warning, 2 if a file cannot be read.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function check(file) {
  const data = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.join(dir, decodeURIComponent(uri)), (err, buf) => (err ? reject(err.toString()) : resolve(new Uint8Array(buf))));
      }),
  });
  const n = report.issues;
  const bad = n.messages.filter((m) => m.severity <= 1).map((m) => `${m.code} ${m.pointer || ''} ${m.message}`);
  console.log(`${file}: errors ${n.numErrors} warnings ${n.numWarnings} infos ${n.numInfos} hints ${n.numHints}` +
              (bad.length ? ' [' + bad.join('; ') + ']' : ''));
  return n.numErrors + n.numWarnings;
}

(async () => {
  let total = 0;
  for (const f of process.argv.slice(2)) {
    try {
      total += await check(f);
    } catch (e) {
      console.log(`${f}: cannot validate: ${e}`);
      process.exit(2);
    }
  }
  process.exit(total ? 1 : 0);
})();
