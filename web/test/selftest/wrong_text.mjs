// Self-test of the harness (tests/browser.rs): a wait for words the page never shows
// fails, naming its step and what the page showed instead.
export default async function (env) {
  const page = await env.step('open the players\' page', () => env.open(env.playersUrl));
  await env.step('look for words that are not there', async () => {
    await page.evaluate(() => { document.body.innerHTML = '<h1>The words that are there</h1>'; });
    await env.waitText(page.locator('h1'), 'Words Never Written', 1_000);
  });
}
