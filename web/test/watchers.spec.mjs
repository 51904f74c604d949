// Several pages on one game: the players' page, open while the umpire adjudicates, sees
// the result as it is made (server-sent events, no reload); it holds no token, so none
// of its controls that change the game is enabled, and the server refuses it (403).
//
// The result the umpire makes is the rulebook's: the second foot (Line, 30% lost: "Each
// 25% lost" -1) rolls 6, modified to 5: Tardy in good order (5,6).

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  // The players' page's own fetch of /api/apply is refused on purpose: Chromium reports
  // the 403 on the console.
  env.allow(/403/);

  const players = await step("open the players' page (phone)", () =>
    env.open(env.playersUrl, { size: 'phone', label: "players' page" }));
  await step("the players' page watches", async () => {
    await waitText(players.locator('#who'), 'watching');
    await waitText(players.locator('#live'), 'live');
    await waitText(players.locator('#result-none'), 'Nothing adjudicated yet');
  });

  const umpire = await step("open the umpire's page (desktop)", () =>
    env.open(env.umpireUrl, { size: 'desktop', label: "umpire's page" }));
  await step('the umpire adjudicates the second foot with a 6', async () => {
    await waitText(umpire.locator('#who'), 'umpire');
    await umpire.click('#roster [data-unit="second_foot"]');
    await umpire.selectOption('#ask-pick', 'manoeuvre_turn');
    await umpire.fill('#ask-dice', '6');
    await umpire.click('#adjudicate');
    await waitText(umpire.locator('#headline'), 'Tardy');
  });
  await step("screenshot: the umpire's page", () => shot(umpire, 'watchers-1-umpire-desktop'));

  await step("the players' page shows the result within a few seconds, without a reload", async () => {
    await waitText(players.locator('#headline'), 'Tardy', 5_000);
    await waitText(players.locator('#result-question'), 'manoeuvre_turn("second_foot")');
    const dice = await players.locator('#result-dice').innerText();
    assert(/D10: 6, modified -1 → 5/.test(dice), `the players' page reads the dice: ${dice}`);
    const explanation = await players.locator('#explanation').innerText();
    assert(explanation.includes('Each 25% lost'), `the players' page has no explanation: ${explanation}`);
  });

  await step("the players' page has no enabled control that changes the game", async () => {
    for (const id of ['adjudicate', 'apply', 'drop', 'undo', 'redo', 'save', 'save-as']) {
      const enabled = await players.locator(`#${id}`).isEnabled();
      assert(!enabled, `#${id} is enabled on the players' page`);
    }
    await waitText(players.locator('#change-why'), 'This page watches the game');
  });
  await step("screenshot: the players' page", () => shot(players, 'watchers-2-players-phone'));

  await step("the server refuses the players' page a change (403)", async () => {
    const answer = await players.evaluate(async () => {
      const r = await fetch('/api/apply', { method: 'POST' });
      return { status: r.status, body: await r.json() };
    });
    assert(answer.status === 403, `POST /api/apply without the token answered ${answer.status}`);
    assert(answer.body.error?.[0]?.code === 'umpire::serve::token', `the refusal reads ${JSON.stringify(answer.body)}`);
  });

  await step("the umpire applies; the players' page hears of it", async () => {
    await umpire.click('#apply');
    await waitText(umpire.locator('#game-state'), 'Unsaved');
    await waitText(players.locator('#game-state'), 'Unsaved', 5_000);
    await waitText(players.locator('#roster [data-unit="second_foot"]'), 'manoeuvred on 3', 5_000);
  });
  await step("screenshot: the players' page after the apply", () => shot(players, 'watchers-3-players-applied-phone'));
}
