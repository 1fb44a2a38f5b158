/**
 * An option of the command line as one object (its flags, help, default and how its text is read),
 * added to a command and read back from it by the same code for every command.
 */
import { type Command, Option } from 'commander';

export interface CliOption<T, R = string | undefined> {
  /** commander's flags: `-o, --output <file>`, `--no-progress`, `--heap [which]`. */
  readonly flags: string;
  readonly help: string;
  /** Used and shown in the help when the option is not given, as a user would type it. */
  readonly default?: string | readonly string[];
  readonly choices?: readonly string[];
  /** The value of an optional value's flag given alone (`--heap` is `--heap live`). */
  readonly preset?: string;
  /** The `--no-…` flag declared beside a flag (`--no-color` beside `--color`), with its help line. */
  readonly negation?: { readonly flags: string; readonly help: string };
  /** Each use adds its value to a list (`--log a --log b`). */
  readonly repeatable?: boolean;
  readonly required?: boolean;
  /** How errors name the option when it is not its long flag (`-j`). */
  readonly name?: string;
  /**
   * What the command is handed, from what commander read: the text (or the default), a flag's
   * true or false, undefined when absent. A value that cannot be used throws a UsageError naming the flag.
   */
  readonly parse: (raw: R, env: NodeJS.ProcessEnv) => T;
}

/** A command's options, by the name of the value the command is handed. */
export type OptionList = Readonly<Record<string, CliOption<unknown, never>>>;

type ValueOf<O> = O extends CliOption<infer T, never> ? T : never;
/** What a command is handed: each option's value, optional where it may be absent (never an explicit undefined). */
export type OptionValues<L extends OptionList> = {
  readonly [K in keyof L as undefined extends ValueOf<L[K]> ? never : K]: ValueOf<L[K]>;
} & {
  readonly [K in keyof L as undefined extends ValueOf<L[K]> ? K : never]?: Exclude<ValueOf<L[K]>, undefined>;
};

/** The same option with the help one command gives it (its flags, default and reading stay those of the one definition). */
export function withHelp<T, R>(option: CliOption<T, R>, help: string, flags = option.flags): CliOption<T, R> {
  return { ...option, help, flags };
}

/** How errors and notes name the option: `--max-gunzip-size`, or its `name`. */
export function flagName(option: CliOption<unknown, never>): string {
  return option.name ?? /--[\w-]+/.exec(option.flags)![0];
}

/** commander's key for the option's value (`--no-progress` is `progress`). */
function keyOf(option: CliOption<unknown, never>): string {
  return new Option(option.flags).attributeName();
}

/** Adds the options to the command, in the list's order (the order the help shows them in). */
export function addOptions(command: Command, options: OptionList): void {
  for (const o of Object.values(options)) {
    const option = new Option(o.flags, o.help);
    if (o.choices !== undefined) option.choices(o.choices);
    if (o.preset !== undefined) option.preset(o.preset);
    if (o.repeatable === true) option.argParser((value: string, all: readonly string[]) => [...all, value]);
    if (o.default !== undefined) option.default(o.default);
    if (o.required === true) option.makeOptionMandatory();
    command.addOption(option);
    if (o.negation !== undefined) command.addOption(new Option(o.negation.flags, o.negation.help));
  }
}

/** The names (keys of `options`) of the options given on the command line, not left at their defaults. */
export function givenOptions(command: Command, options: OptionList): Set<string> {
  return new Set(Object.keys(options).filter((name) => command.getOptionValueSource(keyOf(options[name]!)) === 'cli'));
}

/** Each option's value read and checked, in the list's order (the first bad one is the error). */
export function readOptions<L extends OptionList>(command: Command, options: L, env: NodeJS.ProcessEnv): OptionValues<L> {
  const raw = command.opts();
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(options)) {
    const value = o.parse(raw[keyOf(o)] as never, env);
    if (value !== undefined) values[name] = value;
  }
  return values as OptionValues<L>;
}
