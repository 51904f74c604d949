// The umpire's page on a phone (390×844), as a club umpire new to it played a turn.
//
// - The game's own questions can be picked (next_turn(), asked of no unit); the unit's
//   list gives names alone (✎ marks one that may change the state), not cut sentences.
// - next_turn() applied moves the clock from turn 3 (the state file) to turn 4, and "Save
//   as new file…" then suggests after-turn-4.toml, from the clock as it stands.
// - A sweep's chart keeps its own width (its labels readable) in a box that scrolls
//   sideways, and says so. A chosen roll after a sweep says the swept name m needs a
//   value; m replaced by the sweep's first value, -1: a 7 on the D10 is 7 - 1 = 6, Tardy
//   in good order (the Manoeuvre Table: 5,6 Tardy).
// - An alert from one screen is gone on another.
// - The Editions odds box holds a real question (the first unit's manoeuvre); a table
//   wider than the phone says it scrolls.
// - The players' page names the state file, not where it is on the umpire's disk.

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  const page = await step("open the umpire's page (phone)", () =>
    env.open(env.umpireUrl, { size: 'phone', label: "umpire's page" }));

  await step("the game's questions: next_turn() picked fills the question box", async () => {
    await waitText(page.locator('#who'), 'umpire');
    const unitOptions = await page.locator('#ask-pick option').allInnerTexts();
    assert(unitOptions.every((o) => !o.includes('(')), `a unit question's option is a sentence: ${unitOptions}`);
    assert(unitOptions.some((o) => o.startsWith('manoeuvre_turn') && o.includes('✎')),
      `manoeuvre_turn (it sets manoeuvred_on) is not marked ✎: ${unitOptions}`);
    await page.selectOption('#ask-game', 'next_turn');
    const q = await page.inputValue('#ask-question');
    assert(q === 'next_turn()', `the question box reads ${q}`);
  });

  await step('next_turn() adjudicated and applied: the clock reads turn 4', async () => {
    await page.click('#adjudicate');
    await waitText(page.locator('#result-question'), 'next_turn()');
    await page.click('#apply');
    await waitText(page.locator('#clock'), 'turn 4');
  });

  await step('"Save as new file…" suggests after-turn-4.toml', async () => {
    await page.click('#save-as');
    const name = await page.inputValue('#save-name');
    assert(name === 'after-turn-4.toml', `the suggested name is ${name}`);
    await page.click('#save-cancel');
  });

  await step('a sweep on the phone: the chart keeps its width, its box scrolls and says so', async () => {
    await page.click('#tab-odds');
    await page.fill('#odds-question', 'manoeuvre_table(good_order, D10 + m)');
    await page.fill('#odds-sweep', 'm=-1..1');
    await page.click('#odds-go');
    await page.locator('#odds-chart svg').waitFor({ state: 'visible' });
    const m = await page.locator('#odds-chart').evaluate((box) => {
      const svg = box.querySelector('svg');
      return { natural: Number(svg.getAttribute('width')), drawn: svg.getBoundingClientRect().width,
        box: box.clientWidth, scroll: box.scrollWidth };
    });
    assert(m.drawn >= m.natural - 1, `the chart is drawn ${m.drawn}px wide, not its own ${m.natural}px`);
    if (m.scroll > m.box + 1) {
      await page.locator('#odds-chart-scroll').waitFor({ state: 'visible' });
    } else {
      assert(await page.locator('#odds-chart-scroll').isHidden(), 'the chart fits, yet the page says to scroll it');
    }
  });
  await step('screenshot: the sweep on a phone', () => shot(page, 'phone-1-sweep'));

  await step('a chosen roll after the sweep: m needs a value, said before asking', async () => {
    await waitText(page.locator('#whatif-sweep-text'), 'sweeps m');
    await page.fill('#whatif-dice', '7');
    await page.click('#whatif-go');
    await waitText(page.locator('#alert'), 'swept name m');
  });

  await step("the Odds screen's alert is gone on the Ruleset screen", async () => {
    await page.click('#tab-rules');
    await page.locator('#rules-list .definition').first().waitFor({ state: 'attached' });
    assert(await page.locator('#alert').isHidden(), 'the Odds alert is still shown on the Ruleset screen');
  });

  await step('m replaced by -1: a 7 is 6 on the table, Tardy', async () => {
    await page.click('#tab-odds');
    await page.click('#whatif-sweep-fill');
    const q = await page.inputValue('#odds-question');
    assert(q === 'manoeuvre_table(good_order, D10 + (-1))', `the question reads ${q}`);
    await page.click('#whatif-go');
    await waitText(page.locator('#whatif-headline'), 'Tardy');
  });
  await step('screenshot: the chosen roll on a phone', () => shot(page, 'phone-2-whatif'));

  await step('Editions: the odds box holds the first unit\'s manoeuvre; wide tables say they scroll', async () => {
    await page.click('#tab-editions');
    await waitText(page.locator('#editions-what'), 'furious_reason');
    const q = await page.inputValue('#ed-question');
    assert(/^manoeuvre\(brigade\.\w+\)$/.test(q), `the odds box reads ${q}`);
    const boxes = await page.locator('#editions-tables .edition').evaluateAll((eds) => eds.map((e) => {
      const box = e.querySelector('.table-box');
      return { wide: box.scrollWidth > box.clientWidth + 1, said: !e.querySelector('.scroll-hint').hidden };
    }));
    assert(boxes.length > 0, 'no edition tables');
    assert(boxes.every((b) => b.wide === b.said), `a table's "scroll" hint does not match its width: ${JSON.stringify(boxes)}`);
  });
  await step('screenshot: the editions on a phone', () => shot(page, 'phone-3-editions'));

  await step('Editions: the odds compared from the box as filled', async () => {
    await page.click('#ed-go');
    await page.locator('#ed-chart svg').waitFor({ state: 'visible' });
  });
  await step('screenshot: the editions odds on a phone', () => shot(page, 'phone-4-editions-odds'));

  const players = await step("open the players' page (phone)", () =>
    env.open(env.playersUrl, { size: 'phone', label: "players' page" }));
  await step("the players' page names the state file without its folder", async () => {
    const text = await waitText(players.locator('#game-state'), 'furious_reason_brigade.toml');
    assert(!/[\\/]/.test(text), `the players' page shows a path: ${text}`);
  });
}
