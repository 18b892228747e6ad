/**
 * A leader-only job's writes and sends, fenced with the lead's term (cluster/shared.ts LeadFence): the
 * job reads the term when it starts, and each step runs only while that term is still current. An old
 * leader that has not yet heard that the lock is gone is refused there, and its job stops quietly.
 */
import type { LeadFence } from "../cluster/index.js";
import type { Logger } from "../logging/logger.js";

export class LeaderTerm {
  private term: number | undefined;
  private refused = false;

  /** `job` names the job in the one log line a refusal writes. */
  constructor(
    private readonly fence: LeadFence | undefined,
    private readonly logger: Logger,
    private readonly job: string,
  ) {}

  /** The job starts (again): its steps run under the term current now. */
  begin(): void {
    this.term = this.fence?.term();
    this.refused = false;
  }

  /** True once a step was refused: the job should stop. */
  get lost(): boolean {
    return this.refused;
  }

  /**
   * Runs `step` while the term is current (and holds the term until it ends); false when refused.
   * Without a fence or a term (a process that never led) the step simply runs.
   */
  async run(step: () => Promise<void>): Promise<boolean> {
    if (this.refused) return false;
    if (!this.fence || this.term === undefined) {
      await step();
      return true;
    }
    if (await this.fence.fenced(this.term, step)) return true;
    if (!this.refused) this.logger.warn({ job: this.job }, "not leading any more: this job's work is left to the new leader");
    this.refused = true;
    return false;
  }
}
