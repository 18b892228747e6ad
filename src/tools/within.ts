/** Waiting on work with a bound in real time (a stop's grace), never on the injected clock. */

/** Resolves when `work` settles or after `ms` of real time (a stop's grace), whichever is first; never rejects. */
export function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });
}
