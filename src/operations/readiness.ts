/** One dependency readiness asks about; `check` resolves when it answers and rejects with the reason. */
export interface ReadinessCheck {
  readonly name: string;
  readonly check: () => Promise<void>;
}

export interface CheckOutcome {
  readonly name: string;
  readonly ok: boolean;
}

/** Each check's answer must come within this long: a hung dependency is down, not a hung probe. */
export const CHECK_TIMEOUT_MS = 2_000;

/**
 * Runs the checks side by side, each bounded by `timeoutMs`. A failure's detail (host names, driver
 * messages) goes to `log` only; the outcome names the dependency and whether it answered.
 */
export async function runChecks(
  checks: readonly ReadinessCheck[],
  log: (name: string, error: unknown) => void,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<CheckOutcome[]> {
  return Promise.all(
    checks.map(async ({ name, check }): Promise<CheckOutcome> => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`no answer within ${String(timeoutMs)} ms`));
        }, timeoutMs);
      });
      try {
        await Promise.race([check(), timedOut]);
        return { name, ok: true };
      } catch (error) {
        log(name, error);
        return { name, ok: false };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
