#!/usr/bin/env node
/** Commander wiring only: parse arguments, call a command, map errors to exit codes. */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { analyzeCommand } from './commands/analyze.js';
import { rulesCommand } from './commands/rules.js';
import { UserError } from './errors.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function main(argv: string[]): Promise<number> {
  const program = new Command('dumpsleuth')
    .description('Diagnose sick Java services from their thread dumps and heap dumps.')
    .version(version)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode = 0;
  program
    .command('analyze')
    .description('analyse thread dumps (files, directories = one incident each, or - for stdin)')
    .argument('<paths...>', 'dump files or directories')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'markdown', 'html']).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity (info|warning|error|critical|never)', 'error')
    .option('-c, --config <file>', 'JSON config with rule severities and options (default: ./dumpsleuth.config.json)')
    .option('--color', 'force colours')
    .option('--no-color', 'no colours')
    .option('--no-progress', 'no progress line on stderr')
    .action(async (paths: string[], o: { format: string; output?: string; failOn: string; config?: string; color?: boolean; progress: boolean }) => {
      exitCode = await analyzeCommand(
        paths,
        {
          format: o.format,
          failOn: o.failOn,
          progress: o.progress,
          ...(o.output !== undefined ? { output: o.output } : {}),
          ...(o.config !== undefined ? { config: o.config } : {}),
          // commander leaves `color` undefined unless --color or --no-color was given.
          ...(o.color !== undefined ? { color: o.color } : {}),
        },
        { stdout: process.stdout, stderr: process.stderr, env: process.env, version },
      );
    });
  program
    .command('rules')
    .description('list the rules, their ids, default severities and options')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((o: { format: string }) => {
      process.stdout.write(rulesCommand(o.format));
    });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof UserError) {
      process.stderr.write(`error: ${e.message}\n  ${e.remedy}\n`);
      return 2;
    }
    process.stderr.write(`internal error (a bug in dumpsleuth, please report it): ${(e as Error).stack ?? String(e)}\n`);
    return 70;
  }
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`internal error: ${String(e)}\n`);
    process.exitCode = 70;
  },
);
