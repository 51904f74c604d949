// The Editions screen (desktop): the club's house rule beside Furious Reason, its base.
// The house rule changes one cell of movement_rate (line_square | infantry: 8" in the
// book, 9" in the club's rules): that row is marked changed in both tables, with a marker
// that is not colour alone. The odds of the grenadiers' manoeuvre, old against new, are
// drawn as a chart. The grenadiers (in good order) have Both Flanks Secure +1, Column
// Formation +1 and Grenadier Class +1: the book's D10 + 3 is Well Handled on 4 to 10
// (70%); the club counts grenadiers as veterans, +1 more: D10 + 4, Well Handled on 3 to
// 10 (80%).

export default async function (env) {
  const { step, shot, assert, waitText } = env;
  const page = await step("open the umpire's page (desktop) at #editions", () =>
    env.open(`${env.umpireUrl}#editions`, { size: 'desktop', label: "umpire's page" }));

  await step('the house rule against its base', async () => {
    await waitText(page.locator('#editions-what'), 'furious_reason');
    await waitText(page.locator('#editions-changes'), 'movement_rate');
  });

  await step("movement_rate's changed row: 8\" old, 9\" new, marked changed", async () => {
    const rows = (side) => page.locator('#editions-tables section')
      .filter({ hasText: 'movement_rate' })
      .locator('.table-box').nth(side).locator('tr.changed');
    const old = rows(0);
    const now = rows(1);
    assert((await old.count()) >= 1, 'no row of the old movement_rate is marked changed');
    assert((await now.count()) >= 1, 'no row of the new movement_rate is marked changed');
    const oldText = (await old.allInnerTexts()).join('\n');
    const newText = (await now.allInnerTexts()).join('\n');
    for (const [text, cell, side] of [[oldText, '8"', 'old'], [newText, '9"', 'new']]) {
      assert(/line_square/.test(text) && /infantry/.test(text) && text.includes(cell),
        `the ${side} table's changed row is not line_square | infantry ${cell}: ${text}`);
      assert(text.includes('changed'), `the ${side} table's changed row has no visible marker: ${text}`);
    }
  });
  await step('screenshot: the editions', () => shot(page, 'editions-1-tables-desktop'));

  await step('the odds of manoeuvre(brigade.grenadiers), old against new: a chart', async () => {
    await page.fill('#ed-question', 'manoeuvre(brigade.grenadiers)');
    await page.click('#ed-go');
    await page.locator('#ed-chart svg').waitFor({ state: 'visible' });
    const bars = await page.locator('#ed-chart svg rect').count();
    assert(bars > 1, 'the comparison chart draws no bars');
    const text = await page.locator('#ed-chart svg').textContent();
    assert(text.includes('Well Handled') && text.includes('70.00%') && text.includes('80.00%'),
      `the chart does not give Well Handled 70% old and 80% new: ${text.slice(0, 400)}`);
  });
  await step('screenshot: the odds old against new', () => shot(page, 'editions-2-odds-desktop'));
}
