/** Cause links gathered one at a time, each kept once, in the order first given (the report lists them so). */
import type { CauseLink } from '../rule.js';

export class CauseLinks {
  private readonly byKey = new Map<string, CauseLink>();

  add(rule: string, subject: string): void {
    const key = `${rule}\u0000${subject}`;
    if (!this.byKey.has(key)) this.byKey.set(key, { rule, subject });
  }

  list(): CauseLink[] {
    return [...this.byKey.values()];
  }
}
