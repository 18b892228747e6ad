/**
 * A Shared whose lead the test hands out and takes back (two processes without PostgreSQL): the
 * rest is LocalShared; the hints this process sends are recorded.
 */
import type { Clock } from "../../src/tools/clock.js";
import { LocalShared } from "../../src/cluster/localShared.js";
import type { HintKind, Leadership } from "../../src/cluster/shared.js";

export class FakeLeadership implements Leadership {
  private leader = false;
  private onLead: (() => Promise<void>) | undefined;
  private onLose: (() => Promise<void>) | undefined;

  run(onLead: () => Promise<void>, onLose: () => Promise<void>): void {
    this.onLead = onLead;
    this.onLose = onLose;
  }

  isLeader(): boolean {
    return this.leader;
  }

  async stop(): Promise<void> {
    this.leader = false;
    this.onLead = undefined;
  }

  /** The lock came to this process. */
  async take(): Promise<void> {
    this.leader = true;
    await this.onLead?.();
  }

  /** The lock is gone (connection lost). */
  async lose(): Promise<void> {
    this.leader = false;
    await this.onLose?.();
  }
}

export class FakeShared extends LocalShared {
  readonly control = new FakeLeadership();
  readonly sent: [HintKind, string][] = [];

  constructor(clock: Clock, dataDir: string) {
    super(clock, dataDir);
  }

  override leadership(): Leadership {
    return this.control;
  }

  override notify(kind: HintKind, id: string): void {
    this.sent.push([kind, id]);
  }

  /** A hint from the other process. */
  receive(kind: HintKind, id: string): void {
    super.notify(kind, id);
  }
}
