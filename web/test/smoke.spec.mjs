// Smoke: the umpire's page and the players' page open in Chromium, at phone and desktop
// sizes, without an error; the page names the ruleset served (Furious Reason, which the
// house rule examples/house/furious_reason_veterans.rules extends); the umpire's page
// holds the token and the players' page does not.

/** GET /api/table from inside `page` (its own origin), with the token if `token`. */
async function tableFrom(page, token) {
  return page.evaluate(async (t) => {
    const headers = t ? { 'X-Umpire-Token': t } : {};
    const answer = await fetch('/api/table', { headers });
    return { status: answer.status, body: await answer.json() };
  }, token);
}

export default async function (env) {
  const { step, shot, assert } = env;
  const token = new URL(env.umpireUrl).searchParams.get('token');
  assert(token && /^[0-9a-f]+$/i.test(token), `the umpire's address holds no token: ${env.umpireUrl}`);

  for (const size of ['phone', 'desktop']) {
    const page = await step(`open the umpire's page (${size})`, () =>
      env.open(env.umpireUrl, { size, label: `umpire's page (${size})` }));

    await step(`the ${size} page has a heading`, () => page.locator('h1').first().waitFor({ state: 'visible' }));

    const placeholder = (await page.locator('body').innerText()).includes('The page is being written.');
    if (placeholder) {
      env.log('the page is still the placeholder: its heading is not held to the title');
    } else {
      await step(`the ${size} page names the ruleset`, async () => {
        const named = () => [document.title, document.querySelector('h1')?.innerText ?? '']
          .some((t) => t.includes('Furious Reason'));
        const ok = await page.waitForFunction(named).then(() => true, () => false);
        const heading = await page.locator('h1').first().innerText();
        assert(ok, `neither the heading nor the title names Furious Reason: title "${await page.title()}", heading "${heading}"`);
      });
    }

    await step(`the ${size} page's table is Furious Reason's, and it may change the game`, async () => {
      const { status, body } = await tableFrom(page, token);
      assert(status === 200, `GET /api/table answered ${status}`);
      assert(body.ruleset?.title === "Furious Reason, with the club's house rules", `the ruleset is "${body.ruleset?.title}"`);
      assert(body.can_change === true, 'with the token, can_change is not true');
      assert(Array.isArray(body.roster) && body.roster.length > 0, 'the roster is empty');
    });

    await step(`screenshot (${size})`, () => shot(page, `smoke-umpire-${size}`));
  }

  const players = await step("open the players' page", () =>
    env.open(env.playersUrl, { size: 'phone', label: "players' page" }));
  await step("the players' page cannot change the game", async () => {
    assert(!players.url().includes('token='), `the players' address holds a token: ${players.url()}`);
    const { status, body } = await tableFrom(players, null);
    assert(status === 200, `GET /api/table answered ${status}`);
    assert(body.can_change === false, 'without the token, can_change is not false');
  });
  await step("screenshot (players' page)", () => shot(players, 'smoke-players-phone'));

  // Left unsaved for tests/browser.rs: on SIGINT the server must write nothing.
  await step('adjudicate and apply a manoeuvre, leaving it unsaved', async () => {
    const page = await env.open(env.umpireUrl, { size: 'desktop', label: "umpire's page (API)" });
    const answers = await page.evaluate(async (t) => {
      const post = async (path, body) => {
        const answer = await fetch(path, {
          method: 'POST',
          headers: { 'X-Umpire-Token': t, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { path, status: answer.status, body: await answer.json() };
      };
      return [
        await post('/api/adjudicate', { question: 'manoeuvre_turn("second_foot")', dice: [6] }),
        await post('/api/apply'),
      ];
    }, token);
    for (const a of answers) assert(a.status === 200, `${a.path} answered ${a.status}: ${JSON.stringify(a.body)}`);
    assert(answers[1].body.table?.unsaved === true, 'after apply, the table is not unsaved');
  });
}
