// Self-test of the harness (tests/browser.rs, with UMPIRE_SPEC_TIMEOUT short): a scenario
// that never ends fails when its time is up, naming the step it was at.
export default async function (env) {
  await env.step('open the players\' page', () => env.open(env.playersUrl));
  await env.step('wait for ever', () => new Promise(() => {}));
}
