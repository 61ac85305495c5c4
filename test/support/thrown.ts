// What a synchronous call throws, when it is of the expected class: for tests that look at an
// error's fields. Anything else thrown is rethrown; returning normally fails the test.
export function thrownBy<E extends Error>(run: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    run();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}
