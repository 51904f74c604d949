// The Odds screen (desktop): a table's exact distribution as a bar chart, a sweep as a
// chart, and the explanation of a chosen roll.
//
// The rulebook's Manoeuvre Table, the good-order column, on a plain D10 (no modifier):
// 7 or more Well Handled (7, 8, 9, 10: 4 faces in 10, 40%); 5,6 Tardy (20%); 3,4 Hold
// (20%); 1,2 Disengage (20%); 0 or less cannot be rolled on a D10.

/** The chart's bars as { label: percent }, read from each bar group's <title>. */
async function bars(page, box) {
  return page.locator(`${box} svg`).evaluate((svg) => {
    const out = {};
    for (const t of svg.querySelectorAll('g > title')) {
      const m = /^(.*?): .*?(-?[\d.]+)%$/.exec(t.textContent.trim());
      if (m) out[m[1]] = Number(m[2]);
    }
    return out;
  });
}

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  const page = await step("open the umpire's page (desktop)", () =>
    env.open(env.umpireUrl, { size: 'desktop', label: "umpire's page" }));

  await step('go to the Odds screen', async () => {
    await waitText(page.locator('#who'), 'umpire');
    await page.click('#tab-odds');
    await page.locator('#odds-form').waitFor({ state: 'visible' });
    const selected = await page.getAttribute('#tab-odds', 'aria-selected');
    assert(selected === 'true', `the Odds tab is not selected (aria-selected ${selected})`);
    assert(page.url().endsWith('#odds'), `the address does not name the screen: ${page.url()}`);
  });

  await step('pick manoeuvre_table: the box names its keys to fill in', async () => {
    await page.selectOption('#odds-pick', 'manoeuvre_table');
    const q = await page.inputValue('#odds-question');
    assert(q === 'manoeuvre_table(order, roll)', `the question box reads ${q}`);
  });

  await step('the odds of manoeuvre_table(good_order, D10): a bar chart', async () => {
    await page.fill('#odds-question', 'manoeuvre_table(good_order, D10)');
    await page.locator('#odds-question').press('Enter');
    await page.locator('#odds-chart svg').waitFor({ state: 'visible' });
    const n = await page.locator('#odds-chart svg rect.bar').count();
    assert(n === 4, `the chart has ${n} bars, not 4 (Well Handled, Tardy, Hold, Disengage)`);
  });

  await step('the chart gives the rulebook odds: Well Handled 40%, the rest 20% each', async () => {
    const b = await bars(page, '#odds-chart');
    const want = { 'Well Handled': 40, Tardy: 20, Hold: 20, Disengage: 20 };
    for (const [label, pct] of Object.entries(want)) {
      assert(b[label] === pct, `the chart gives ${label} ${b[label]}%, not ${pct}% (bars: ${JSON.stringify(b)})`);
    }
    const report = await page.locator('#odds-text').textContent();
    assert(/Well Handled/.test(report) && /40/.test(report), `the text report does not give Well Handled 40%: ${report}`);
  });
  await step('screenshot: the odds', () => shot(page, 'odds-1-chart-desktop'));

  await step('a chosen roll, 7, explained: Well Handled', async () => {
    await page.fill('#whatif-dice', '7');
    await page.click('#whatif-go');
    await waitText(page.locator('#whatif-headline'), 'Well Handled');
    const explanation = await page.locator('#whatif-explanation').innerText();
    assert(explanation.includes('Furious Reason, The Manoeuvre Table'), `the explanation cites no page: ${explanation}`);
  });
  await step('screenshot: the chosen roll', () => shot(page, 'odds-2-whatif-desktop'));

  await step('a sweep, m=-1..1, draws a chart', async () => {
    await page.fill('#odds-question', 'manoeuvre_table(good_order, D10 + m)');
    await page.fill('#odds-sweep', 'm=-1..1');
    await page.click('#odds-go');
    await waitText(page.locator('#odds-of'), 'm=-1..1');
    await page.locator('#odds-chart svg').waitFor({ state: 'visible' });
    const shapes = await page.locator('#odds-chart svg rect, #odds-chart svg path, #odds-chart svg polyline').count();
    assert(shapes > 0, 'the sweep chart draws nothing');
    const text = await page.locator('#odds-chart svg').textContent();
    assert(/m/.test(text) && /Well Handled/.test(text), `the sweep chart names neither m nor the outcomes: ${text.slice(0, 300)}`);
  });
  await step('screenshot: the sweep', () => shot(page, 'odds-3-sweep-desktop'));
}
