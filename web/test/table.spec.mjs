// The Table screen on the umpire's page, phone-sized: a unit and a question picked from
// the roster, the players' die given, the result in the rulebook's words with its
// modified roll and its effects; applied with one click, taken back with another.
//
// What the rulebook says (rulesets/furious_reason.rules, unchanged for Line units by the
// house rule): the second foot is Line with 30% lost; "Each 25% lost" gives -1, so a
// D10 of 6 is modified to 5; on the Manoeuvre Table a unit in good order on 5,6 is
// Tardy. `manoeuvre_turn` marks the unit as having manoeuvred this turn: the effect
// sets its manoeuvred_on from 0 to the turn, 3 (the state file says turn = 3).

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  const page = await step("open the umpire's page (phone)", () =>
    env.open(env.umpireUrl, { size: 'phone', label: "umpire's page" }));

  await step('the roster and the clock', async () => {
    await waitText(page.locator('#roster'), 'second foot');
    await waitText(page.locator('#clock'), 'turn 3');
    await waitText(page.locator('#who'), 'umpire');
    const line = await page.locator('#roster [data-unit="second_foot"]').innerText();
    assert(/grade\s+Line/.test(line) && /lost percent\s+30/.test(line),
      `the second foot's line does not give its grade and losses: ${line}`);
    assert(!/rear support/.test(line), `a false flag is shown on the second foot's line: ${line}`);
  });
  await step('screenshot: the roster', () => shot(page, 'table-1-roster-phone'));

  await step('pick the second foot with the keyboard', async () => {
    await page.locator('#roster [data-unit="second_foot"]').focus();
    await page.keyboard.press('Enter');
    await waitText(page.locator('#ask-unit'), 'second foot');
    const pressed = await page.locator('#roster [data-unit="second_foot"]').getAttribute('aria-pressed');
    assert(pressed === 'true', `the second foot's line is not marked as picked (aria-pressed ${pressed})`);
  });

  await step('pick manoeuvre_turn: the question box is filled', async () => {
    await page.selectOption('#ask-pick', 'manoeuvre_turn');
    const q = await page.inputValue('#ask-question');
    assert(q === 'manoeuvre_turn("second_foot")', `the question box reads ${q}`);
  });

  await step("give the players' die, 6, and adjudicate (Enter)", async () => {
    await page.fill('#ask-dice', '6');
    await page.locator('#ask-dice').press('Enter');
    await waitText(page.locator('#headline'), 'Tardy');
  });

  await step('the result: Tardy, the roll 6 modified -1 to 5, the effect on manoeuvred_on', async () => {
    const dice = await page.locator('#result-dice').innerText();
    assert(/D10: 6, modified -1 → 5/.test(dice), `the dice read: ${dice}`);
    assert(dice.includes("players' dice"), `the dice do not say the players rolled: ${dice}`);
    const effects = await page.locator('#effects').innerText();
    assert(effects.includes('brigade.second_foot.manoeuvred_on: 0 → 3'), `the effects read: ${effects}`);
    await waitText(page.locator('#effects-state'), 'wait');
    const explanation = await page.locator('#explanation').innerText();
    assert(explanation.includes('Each 25% lost'), `the explanation does not name the modifier: ${explanation}`);
    assert(explanation.includes('Furious Reason, The Manoeuvre Table'), `the explanation cites no page: ${explanation}`);
    assert(await page.locator('#apply').isEnabled(), 'Apply effects is not enabled');
  });
  await step('screenshot: the result', () => shot(page, 'table-2-result-phone'));

  await step('apply: the table is unsaved, and undo offers to take it back', async () => {
    await page.click('#apply');
    await waitText(page.locator('#game-state'), 'Unsaved');
    await waitText(page.locator('#undo'), 'take back the effects of `manoeuvre_turn("second_foot")`');
    assert(await page.locator('#undo').isEnabled(), 'Undo is not enabled');
    assert(!(await page.locator('#apply').isEnabled()), 'Apply effects is still enabled once applied');
    await waitText(page.locator('#done'), 'applied the effects');
  });
  await step('screenshot: applied', () => shot(page, 'table-3-applied-phone'));

  await step('undo: the effects wait again', async () => {
    await page.click('#undo');
    await waitText(page.locator('#effects-state'), 'These effects wait');
    await waitText(page.locator('#game-state'), 'Nothing unsaved');
    assert(await page.locator('#apply').isEnabled(), 'Apply effects is not enabled again after the undo');
    await waitText(page.locator('#redo'), 'do again the effects of');
  });
  await step('screenshot: taken back', () => shot(page, 'table-4-undone-phone'));

  await step('the phone page does not scroll sideways', async () => {
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert(wide <= 0, `the page is ${wide}px wider than the phone`);
  });
}
