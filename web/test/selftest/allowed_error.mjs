// Self-test of the harness (tests/browser.rs): an error the scenario expects, allowed by
// its pattern, does not fail it.
export default async function (env) {
  env.allow(/an expected error of the self-test/);
  const page = await env.step('open the players\' page', () => env.open(env.playersUrl));
  await env.step('write an expected error to the console', () =>
    page.evaluate(() => console.error('an expected error of the self-test')));
  await env.step('wait for it to arrive', () => page.waitForTimeout(300));
}
