// The Ruleset screen (phone): every definition with its citation; the filter finds the
// Manoeuvre Table, cited as the rulebook cites it ("Furious Reason, The Manoeuvre
// Table": rulesets/furious_reason.rules cites the table so). Then the house rule file
// (the harness's copy) is broken on disk: the screen shows the checker's error with its
// place, without a reload; mended, the error goes.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  const page = await step("open the players' page (phone) at #rules", () =>
    env.open(`${env.playersUrl}#rules`, { size: 'phone', label: "players' page" }));

  await step('the definitions are listed', async () => {
    await page.locator('#rules-list .definition').first().waitFor({ state: 'visible' });
    await waitText(page.locator('#rules-count'), 'definitions');
  });

  await step('filter: manoeuvre_table, with its citation', async () => {
    await page.fill('#rules-filter', 'manoeuvre_table');
    const def = page.locator('#rules-list .definition[data-name="manoeuvre_table"]');
    await def.waitFor({ state: 'visible' });
    const text = await def.innerText();
    assert(text.includes('Furious Reason, The Manoeuvre Table'), `manoeuvre_table's citation reads: ${text}`);
    const others = await page.locator('#rules-list .definition[data-name="movement_rate"]:visible').count();
    assert(others === 0, 'the filter still shows movement_rate');
  });

  await step('its text as written opens', async () => {
    const def = page.locator('#rules-list .definition[data-name="manoeuvre_table"]');
    await def.locator('summary').click();
    const pre = await def.locator('pre').innerText();
    assert(/table\s+manoeuvre_table/.test(pre), `the text as written reads: ${pre.slice(0, 200)}`);
  });
  await step('screenshot: the ruleset', () => shot(page, 'rules-1-filtered-phone'));

  // The house rule's path as the server was given it; a relative one is found in the
  // server's folder (env.serveDir, when the harness gives it).
  const given = await page.evaluate(async () => (await (await fetch('/api/table')).json()).ruleset.source);
  const dir = env.serveDir;
  const source = isAbsolute(given) ? given : dir ? join(dir, given) : null;
  if (!source || !existsSync(source)) {
    env.log(`the ruleset file ${given} is not found from here (no env.serveDir): not edited`);
    return;
  }
  const original = readFileSync(source, 'utf8');
  const lines = original.split('\n').length - (original.endsWith('\n') ? 1 : 0);
  try {
    await step('the house rule broken on disk: its error shows, with its place', async () => {
      // A rule reading a name defined nowhere: the unknown name on the third line added.
      writeFileSync(source, `${original}${original.endsWith('\n') ? '' : '\n'}\nrule broken_rule() -> Int {\n  no_such_name\n}\n`);
      await waitText(page.locator('#rules-problems'), 'no_such_name', 5_000);
      const where = `${basename(source)}:${lines + 3}:3`;
      await waitText(page.locator('#rules-problems'), where, 2_000);
      const rendered = await page.locator('#rules-problems pre').first().innerText();
      assert(rendered.includes('no_such_name'), `the rendered diagnostic does not show the line: ${rendered}`);
      await waitText(page.locator('#rules-notice'), 'does not check');
    });
    await step('screenshot: the problem', () => shot(page, 'rules-2-problem-phone'));
  } finally {
    writeFileSync(source, original);
  }
  await step('mended: the error goes', async () => {
    await page.locator('#rules-problems').waitFor({ state: 'hidden', timeout: 5_000 });
    await page.locator('#rules-notice').waitFor({ state: 'hidden', timeout: 5_000 });
  });
}
