import type { CurationJobStore } from '../curation-job.store.js';

export interface HeartbeatSettings {
  readonly leaseMs: number;
  /** How often the lease is renewed and progress flushed (at most once a second). */
  readonly intervalMs: number;
  readonly now: () => number;
}

/**
 * Keeps a runner's lease on one job alive while it works: every interval it renews the lease, learns
 * whether a cancel was asked or another runner took the job over, and lets the runner flush its progress.
 * A runner that lost its lease stops at its next resource and never ends the job.
 */
export class JobHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private lostLease = false;
  private cancelAsked = false;

  constructor(
    private readonly store: CurationJobStore,
    private readonly jobId: number,
    private readonly owner: string,
    private readonly settings: HeartbeatSettings,
    private readonly onBeat: () => Promise<void>,
    private readonly onTrouble: (error: unknown) => void,
  ) {}

  /** Another runner holds the job now (this one's lease expired). */
  get lost(): boolean {
    return this.lostLease;
  }

  get cancelRequested(): boolean {
    return this.cancelAsked;
  }

  /** Stop the work: the job was cancelled or is no longer this runner's. */
  get stopping(): boolean {
    return this.lostLease || this.cancelAsked;
  }

  start(): void {
    this.timer = setInterval(() => {
      // One beat at a time: a slow database must not pile renewals up.
      this.beating = this.beating.then(() => this.beat());
    }, this.settings.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  /**
   * Right before a repository transaction is committed: renews the lease only while this runner still
   * holds the job with `tx` recorded (another runner that took it over rolls `tx` back). True: nobody can
   * take the job over for a whole lease, far longer than a commit. A database error is thrown: no commit.
   */
  async holdForCommit(tx: string): Promise<boolean> {
    if (this.lostLease) return false;
    const expires = this.settings.now() + this.settings.leaseMs;
    const held = await this.store.holdForCommit(this.jobId, this.owner, tx, expires);
    if (!held) this.lostLease = true;
    return held;
  }

  /** One renewal and flush; also called by the runner before it ends a phase. */
  async beat(): Promise<void> {
    if (this.lostLease) return;
    try {
      const renewal = await this.store.renewLease(
        this.jobId,
        this.owner,
        this.settings.now() + this.settings.leaseMs,
      );
      this.lostLease = !renewal.held;
      this.cancelAsked = renewal.cancelRequested;
      if (renewal.held) await this.onBeat();
    } catch (error) {
      this.onTrouble(error);
    }
  }
}
