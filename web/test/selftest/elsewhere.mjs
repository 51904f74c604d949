// Self-test of the harness (tests/browser.rs): a page that asks another site for
// anything fails the scenario (every asset of the page is inside the binary).
export default async function (env) {
  env.allow(/console error/);
  const page = await env.step('open the players\' page', () => env.open(env.playersUrl));
  await env.step('ask another address', () =>
    page.evaluate(() => fetch('http://127.0.0.2:9/elsewhere').catch(() => 'refused')));
  // The browser's word that its security policy stopped the request comes a moment later.
  await env.step('wait for the browser to say so', () => page.waitForTimeout(500));
}
