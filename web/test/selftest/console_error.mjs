// Self-test of the harness (tests/browser.rs): an error on the page's console fails the
// scenario, though every step passed.
export default async function (env) {
  const page = await env.step('open the players\' page', () => env.open(env.playersUrl));
  await env.step('write an error to the console', () =>
    page.evaluate(() => console.error('a deliberate error of the self-test')));
  await env.step('wait for it to arrive', () => page.waitForTimeout(300));
}
