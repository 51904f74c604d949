// The Ruleset screen (phone): every definition with its citation; the filter finds the
// Manoeuvre Table, cited as the rulebook cites it ("Furious Reason, The Manoeuvre
// Table": rulesets/furious_reason.rules cites the table so).

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
    const others = await page.locator('#rules-list .definition[data-name="movement_rate"]').isVisible();
    assert(!others, 'the filter still shows movement_rate');
  });

  await step('its text as written opens', async () => {
    const def = page.locator('#rules-list .definition[data-name="manoeuvre_table"]');
    await def.locator('summary').click();
    const pre = await def.locator('pre').innerText();
    assert(/table\s+manoeuvre_table/.test(pre), `the text as written reads: ${pre.slice(0, 200)}`);
  });
  await step('screenshot: the ruleset', () => shot(page, 'rules-1-filtered-phone'));
}
