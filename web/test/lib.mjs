// The browser scenarios' harness: Debian's Chromium started headless through
// playwright-core, pages of phone or desktop size watched for console errors and failed
// requests, screenshots, steps with their names, and waits that say what they saw.
// run.mjs builds a scenario's `env` from these; see README.md.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The sizes a page is opened at. */
export const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
};

/** How long one action or wait may take before it fails (ms). */
export const ACTION_TIMEOUT = 10_000;

/** Chromium's switches: headless in a container, nothing fetched from the internet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
];

/**
 * Debian's Chromium (the path in UMPIRE_CHROMIUM, which tests/browser.rs finds with
 * `command -v chromium`), headless, with a fresh temporary profile.
 */
export async function launch() {
  const executablePath = process.env.UMPIRE_CHROMIUM;
  if (!executablePath) {
    throw new Error('UMPIRE_CHROMIUM is not set: give the path of Debian\'s chromium (`command -v chromium`)');
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/**
 * What went wrong on the pages a scenario opened: console errors, uncaught exceptions,
 * requests that failed, answers of 500 or more. A scenario's expected errors are
 * allowed by pattern (`allow`).
 */
export class Problems {
  constructor() {
    this.seen = [];
    this.allowed = [];
    this.closing = false;
  }

  /** Errors whose text matches `pattern` (a RegExp or a string within it) are expected. */
  allow(pattern) {
    this.allowed.push(pattern);
  }

  add(text) {
    if (this.closing) return;
    const ok = this.allowed.some((p) => (p instanceof RegExp ? p.test(text) : text.includes(p)));
    if (!ok) this.seen.push(text);
  }

  /**
   * Listens to `page` (named `name` in the messages), served from `origin`: a request
   * anywhere else is a problem too (every asset is inside the binary).
   */
  watch(page, name, origin) {
    page.on('request', (req) => {
      const url = req.url();
      if (/^(data|blob|about):/.test(url)) return;
      if (new URL(url).origin !== origin) this.add(`${name}: asked another site: ${req.method()} ${url}`);
    });
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const at = msg.location()?.url;
      // The browser asks for /favicon.ico on its own, whatever the page says: not the
      // page's error.
      if (at && new URL(at, 'http://x/').pathname === '/favicon.ico') return;
      // The page's security policy stops a request to another site before it is made
      // (no request is seen): the browser's refusal says where it would have gone.
      const refused = /Refused to (?:connect to|load)[^']*'([^']+)'/.exec(msg.text());
      if (refused) {
        this.add(`${name}: asked another site: ${refused[1]} (stopped by the page's security policy)`);
        return;
      }
      this.add(`${name}: console error: ${msg.text()}${at ? ` (at ${at})` : ''}`);
    });
    page.on('pageerror', (err) => this.add(`${name}: uncaught exception: ${err.message}`));
    page.on('requestfailed', (req) => {
      const why = req.failure()?.errorText ?? 'failed';
      // A stream of server-sent events is cut when its page goes away or navigates.
      if (req.resourceType() === 'eventsource' && why === 'net::ERR_ABORTED') return;
      this.add(`${name}: request failed: ${req.method()} ${req.url()}: ${why}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 500) {
        this.add(`${name}: ${res.request().method()} ${res.url()} answered ${res.status()}`);
      }
    });
  }
}

/** `text` shortened to `n` characters for a message. */
export function clip(text, n = 600) {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

/**
 * Waits until the text of `locator` (a playwright Locator: its first element) matches
 * `want` (a RegExp, or a string it must contain); returns that text. On timeout the
 * error says what was wanted and what was seen last.
 */
export async function waitText(locator, want, timeout = ACTION_TIMEOUT) {
  const matches = (t) => (want instanceof RegExp ? want.test(t) : t.includes(want));
  const end = Date.now() + timeout;
  let seen = '(no such element)';
  for (;;) {
    try {
      const first = locator.first();
      if ((await first.count()) > 0) {
        seen = await first.innerText({ timeout: 1_000 });
        if (matches(seen)) return seen;
      } else {
        seen = '(no such element)';
      }
    } catch (e) {
      seen = `(could not be read: ${e.message.split('\n')[0]})`;
    }
    if (Date.now() > end) {
      throw new Error(`waited ${timeout / 1000} s for ${locator} to read ${want}; it read: ${clip(seen)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Writes a screenshot of the whole page to `${dir}/${name}.png`; returns its path. */
export async function shot(dir, page, name) {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled', timeout: ACTION_TIMEOUT });
  return path;
}

/**
 * A scenario's steps: `step(name, fn)` runs `fn`, and a failure inside it is reported as
 * the failure of that step. `current` is the step under way (for a timeout's message).
 */
export class Steps {
  constructor(log) {
    this.current = '(before the first step)';
    this.done = [];
    this.log = log;
  }

  async step(name, fn) {
    this.current = name;
    this.log(`step: ${name}`);
    try {
      const value = await fn();
      this.done.push(name);
      return value;
    } catch (e) {
      const err = new Error(`step "${name}" failed: ${e?.message ?? e}`);
      err.located = true;
      throw err;
    }
  }
}

/** Runs `promise`, failing with `message()` if it takes more than `ms`. */
export function within(ms, promise, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(message());
      err.located = true;
      reject(err);
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
