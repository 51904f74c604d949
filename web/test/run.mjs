// Runs one browser scenario: `node run.mjs SCENARIO.spec.mjs`, with UMPIRE_URL (the
// umpire's page, with its token), UMPIRE_PLAYERS_URL (the players' page), UMPIRE_SHOTS
// (the folder for screenshots) and UMPIRE_CHROMIUM (Debian's chromium) in the
// environment, and UMPIRE_SERVE_DIR (the server's folder) if a scenario needs it. Exits 0 when the scenario passed, 1 when it failed (the step, and what was
// seen, on stderr), 2 when it could not be run. See README.md.

import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as lib from './lib.mjs';

const started = Date.now();
const log = (...words) => {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`[${secs} s] ${words.join(' ')}`);
};

function usage(message) {
  console.error(`run.mjs: ${message}`);
  console.error('usage: UMPIRE_URL=… UMPIRE_PLAYERS_URL=… UMPIRE_SHOTS=DIR UMPIRE_CHROMIUM=PATH node run.mjs SCENARIO.spec.mjs');
  process.exit(2);
}

const specPath = process.argv[2];
if (!specPath) usage('name the scenario file to run');
for (const v of ['UMPIRE_URL', 'UMPIRE_PLAYERS_URL', 'UMPIRE_SHOTS', 'UMPIRE_CHROMIUM']) {
  if (!process.env[v]) usage(`${v} is not set`);
}
const limit = Number(process.env.UMPIRE_SPEC_TIMEOUT ?? 60_000);
if (!Number.isFinite(limit) || limit <= 0) usage('UMPIRE_SPEC_TIMEOUT is a number of milliseconds');

const name = basename(specPath).replace(/\.spec\.mjs$|\.mjs$/, '');
let spec;
try {
  spec = await import(pathToFileURL(resolve(specPath)).href);
} catch (e) {
  usage(`${specPath} cannot be loaded: ${e.message}`);
}
if (typeof spec.default !== 'function') usage(`${specPath} exports no default async function (env)`);

const problems = new lib.Problems();
const steps = new lib.Steps(log);
const pages = [];
const shots = process.env.UMPIRE_SHOTS;
let browser;

/** The environment a scenario is given. */
function environment() {
  return {
    umpireUrl: process.env.UMPIRE_URL,
    playersUrl: process.env.UMPIRE_PLAYERS_URL,
    /** The server's folder (its ruleset and state files), when the runner says it. */
    serveDir: process.env.UMPIRE_SERVE_DIR || null,
    shots,
    browser,
    name,
    log,
    /** A new page (a context of its own: no shared storage) at `url`, watched for errors. */
    async open(url, { size = 'desktop', label } = {}) {
      const sized = lib.SIZES[size];
      if (!sized) throw new Error(`no page size "${size}" (phone or desktop)`);
      const context = await browser.newContext(sized);
      const page = await context.newPage();
      page.setDefaultTimeout(lib.ACTION_TIMEOUT);
      page.setDefaultNavigationTimeout(lib.ACTION_TIMEOUT);
      const called = label ?? `page ${pages.length + 1} (${size})`;
      problems.watch(page, called, new URL(url).origin);
      // A request the page's security policy stops is never made, so never seen as a
      // request: the page tells the console where it would have gone.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`Refused to connect to '${e.blockedURI}' (the page's security policy)`);
        });
      });
      pages.push(page);
      log(`open ${called}: ${url}`);
      const answer = await page.goto(url, { waitUntil: 'load' });
      if (!answer || !answer.ok()) {
        throw new Error(`${url} answered ${answer ? answer.status() : 'nothing'}`);
      }
      return page;
    },
    async shot(page, shotName) {
      const path = await lib.shot(shots, page, shotName);
      log(`screenshot ${path}`);
      return path;
    },
    step: (stepName, fn) => steps.step(stepName, fn),
    waitText: lib.waitText,
    allow: (pattern) => problems.allow(pattern),
    /** Fails now if a page has had an error. */
    noProblems() {
      if (problems.seen.length) throw new Error(`the page had errors:\n  ${problems.seen.join('\n  ')}`);
    },
    assert(ok, message) {
      if (!ok) throw new Error(message);
    },
  };
}

/** Screenshots of the pages as they were when the scenario failed, for the record. */
async function failureShots() {
  for (const [i, page] of pages.entries()) {
    try {
      if (!page.isClosed()) {
        const path = await lib.shot(shots, page, `FAILED-${name}-${i + 1}`);
        console.error(`  the page then: ${path}`);
      }
    } catch {
      // The page is gone: nothing to show.
    }
  }
}

let failure = null;
try {
  browser = await lib.launch();
  log(`${name}: Chromium ${browser.version()}`);
  await lib.within(limit, spec.default(environment()), () =>
    `the scenario took more than ${limit / 1000} s (at step "${steps.current}")`);
  if (problems.seen.length) {
    failure = `the page had errors:\n  ${problems.seen.join('\n  ')}`;
  }
} catch (e) {
  failure = e?.located || !e?.stack ? String(e?.message ?? e) : e.stack;
  if (!e?.located && steps.current) failure = `at step "${steps.current}": ${failure}`;
  if (problems.seen.length) failure += `\nand the page had errors:\n  ${problems.seen.join('\n  ')}`;
}
problems.closing = true;
// Nothing may keep the process: a browser that will not close is left behind by exiting.
setTimeout(() => process.exit(failure ? 1 : 0), 10_000).unref();
if (failure) {
  console.error(`FAILED ${name}: ${failure}`);
  await failureShots();
}
await browser?.close().catch(() => {});
if (!failure) log(`${name}: passed (${steps.done.length} steps)`);
process.exit(failure ? 1 : 0);
