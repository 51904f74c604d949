// The umpire extension for VS Code. package.json makes `.rules` files the language
// `umpire` (the grammar, `#` comments, brackets); this starts the language server,
// `umpire lsp`, over stdio for them: diagnostics, hover, go to definition, completion,
// formatting. `umpire.path` names the program; changing it restarts the server.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function program() {
  const path = vscode.workspace.getConfiguration('umpire').get('path');
  return typeof path === 'string' && path.trim() !== '' ? path.trim() : 'umpire';
}

async function start() {
  const command = program();
  // An executable with no `transport` talks over its stdin and stdout with no flag
  // added (`transport: stdio` would add `--stdio`): `umpire lsp` serves stdio as it is.
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'umpire',
    'umpire',
    { run: server, debug: server },
    {
      documentSelector: [{ language: 'umpire' }],
      outputChannelName: 'umpire',
    },
  );
  try {
    await client.start();
  } catch (e) {
    client = undefined;
    vscode.window.showErrorMessage(
      `umpire: \`${command} lsp\` did not start (${e && e.message ? e.message : e}). ` +
        'Install umpire (`cargo install --path .` in its clone) or set `umpire.path` to the program.',
    );
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('umpire.path')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
