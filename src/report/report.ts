/** The report: what every renderer draws. Built once from the Model and the findings. */
import type { ConfigSource } from '../model/config-source.js';
import type { Finding } from '../model/findings.js';
import type { Model } from '../model/model.js';

export const REPORT_SCHEMA = 'dumpsleuth.report/1';

export interface Report {
  readonly tool: { readonly name: 'dumpsleuth'; readonly version: string };
  readonly model: Model;
  readonly findings: readonly Finding[];
  /** True when `--redact` masked addresses, host names, user names and query strings. */
  readonly redacted?: boolean;
  /** The config file the rules ran with, when one was used (a file picked up by itself is never silent). */
  readonly config?: ConfigSource;
}

/** One line naming the config file a report used. */
export function configNote(config: ConfigSource): string {
  return config.chosen === 'flag'
    ? `Config: ${config.path} (given with --config).`
    : `Config: ${config.path}, found in the working directory and applied (pass --config to choose another).`;
}

/** The note every format prints on a redacted report. */
export const REDACTED_NOTE = 'Redacted: IP addresses, host names, user names and query strings are replaced by tokens (the same value, the same token).';
