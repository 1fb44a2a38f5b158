/**
 * The CLI as a function: arguments in, an exit code out, everything written through `io` (commander's
 * help and errors too). No process.exit and no state kept between runs (each run builds its own
 * program), so tests run it in-process, many times, and src/cli.ts wires it to the process.
 */
import { readFileSync } from 'node:fs';

import { Command, CommanderError } from 'commander';

import type { CommandIo } from '../commands/io.js';
import { UserError } from '../errors.js';
import { stripControl } from '../report/sanitize.js';
import { type CliCommand, COMMANDS } from './commands.js';
import { addOptions, givenOptions, type OptionList, readOptions } from './option.js';

/** The package's version, as `--version` prints it. */
export const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Runs the CLI on `args` (the arguments after the program's name) and resolves to its exit code. */
export async function runCli(args: readonly string[], io: CommandIo): Promise<number> {
  const program = new Command('dumpsleuth')
    .description('Diagnose sick Java services from their thread dumps and heap dumps.')
    .version(io.version)
    .exitOverride()
    // Help and --version go to io.stdout, commander's errors to io.stderr: nothing reaches the process's own streams.
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  let exitCode = 0;
  for (const definition of COMMANDS as ReadonlyArray<CliCommand<OptionList>>) {
    const command = program.command(definition.name).description(definition.description);
    if (definition.alias !== undefined) command.alias(definition.alias);
    if (definition.argument !== undefined) command.argument(definition.argument.name, definition.argument.help);
    addOptions(command, definition.options);
    command.action(async (...received: unknown[]) => {
      // commander hands the argument's value(s), then the options, then the command.
      const args = definition.argument === undefined ? [] : ([received[0]].flat() as string[]);
      definition.refuse?.(givenOptions(command, definition.options));
      exitCode = await definition.run(args, readOptions(command, definition.options, io.env), io);
    });
  }
  showDefaultsPlain(program);
  // No command at all is a usage error: the help goes to stderr, and a script sees exit 2.
  if (args.length === 0) {
    io.stderr.write(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync([...args], { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof UserError) {
      io.stderr.write(`error: ${e.message}\n  ${e.remedy}\n`);
      return 2;
    }
    // One line for the person on call; the stack for the bug report when asked for.
    const detail = io.env['DUMPSLEUTH_DEBUG'] ? `\n${(e as Error).stack ?? ''}` : '\n  (set DUMPSLEUTH_DEBUG=1 for the stack trace to attach to a bug report)';
    io.stderr.write(`internal error (a bug in dumpsleuth, please report it): ${stripControl(String((e as Error)?.message ?? e)).slice(0, 300)}${detail}\n`);
    return 70;
  }
}

/**
 * Options' defaults as a user types them (`(default: 2)`, not commander's `(default: "2")`, which quotes
 * every string): set once for every option of every command, not option by option.
 */
function showDefaultsPlain(program: Command): void {
  for (const command of [program, ...program.commands])
    for (const option of command.options)
      if (typeof option.defaultValue === 'string' && option.defaultValueDescription === undefined) option.defaultValueDescription = option.defaultValue;
}
