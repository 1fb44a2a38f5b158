/**
 * Errors a user can act on. They carry a remedy and map to exit code 2; anything else that escapes
 * is a bug and is reported as one (exit 70), never as a successful run.
 */
export class UserError extends Error {
  readonly remedy: string;
  constructor(message: string, remedy: string) {
    super(message);
    this.name = new.target.name;
    this.remedy = remedy;
  }
}

/** The input cannot be read or is not something dumpsleuth understands. */
export class InputError extends UserError {}

/** Bad flags, arguments or configuration. */
export class UsageError extends UserError {}
