// The grammar lives once, in editors/umpire.tmLanguage.json (tests/textmate.rs tries it on
// every bundled ruleset). VS Code reads a grammar only from inside the extension's folder,
// and `vsce package` packs only that folder, so this copies it in: run by `npm install`
// (postinstall) and by `vsce package` (vscode:prepublish). The copy is not committed.
'use strict';

const fs = require('fs');
const path = require('path');

const from = path.join(__dirname, '..', 'umpire.tmLanguage.json');
const to = path.join(__dirname, 'syntaxes', 'umpire.tmLanguage.json');

try {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
} catch (e) {
  console.error(`copy-grammar.js: cannot copy ${from} to ${to}: ${e.message}`);
  process.exit(1);
}
