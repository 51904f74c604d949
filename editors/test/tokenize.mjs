// Tokenises .rules files with editors/umpire.tmLanguage.json by the engine VS Code uses
// (vscode-textmate over vscode-oniguruma), a line at a time as the editor does, and prints
// on stdout one JSON document:
//
//   [{ "file": PATH,
//      "lines": [{ "depth": N, "stopped": false, "ms": T,
//                  "tokens": [{ "text": "rule", "scopes": ["source.umpire", ...] }, ...] }] }]
//
// `depth` is the depth of the grammar's stack of open rules when the line starts (1: none
// open), `stopped` whether the engine gave up on the line (it ran past the time limit),
// `ms` the time the line took. The tokens of a line, joined, are the line.
//
// Usage: node tokenize.mjs FILE...   (tests/textmate.rs runs it once for all its files)

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

const here = dirname(fileURLToPath(import.meta.url));
const GRAMMAR = join(here, "..", "umpire.tmLanguage.json");
// The engine gives up on a line past this many milliseconds (VS Code's own limit is 500).
const LINE_TIME_LIMIT_MS = 500;

async function loadRegistry() {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  return new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.umpire") return null;
      return textmate.parseRawGrammar(readFileSync(GRAMMAR, "utf8"), GRAMMAR);
    },
  });
}

function tokenizeFile(grammar, path) {
  const text = readFileSync(path, "utf8");
  // VS Code splits a document at \r\n, \r and \n, and tokenises each line without its end.
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let stack = textmate.INITIAL;
  const out = [];
  for (const line of lines) {
    const depth = stack.depth;
    const start = performance.now();
    const result = grammar.tokenizeLine(line, stack, LINE_TIME_LIMIT_MS);
    const ms = performance.now() - start;
    out.push({
      depth,
      stopped: result.stoppedEarly,
      ms: Math.round(ms * 1000) / 1000,
      tokens: result.tokens.map((t) => ({
        text: line.substring(t.startIndex, Math.min(t.endIndex, line.length)),
        scopes: t.scopes,
      })),
    });
    stack = result.ruleStack;
  }
  return { file: path, lines: out, end_depth: stack.depth };
}

async function main() {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write("usage: node tokenize.mjs FILE...\n");
    process.exit(2);
  }
  const registry = await loadRegistry();
  const grammar = await registry.loadGrammar("source.umpire");
  if (!grammar) throw new Error(`the grammar ${GRAMMAR} did not load`);
  const results = files.map((file) => tokenizeFile(grammar, file));
  process.stdout.write(JSON.stringify(results));
  process.stdout.write("\n");
}

main().catch((e) => {
  process.stderr.write(`tokenize.mjs: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
