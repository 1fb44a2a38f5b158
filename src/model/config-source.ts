/** Which config file an analysis used, and how it was chosen: every report names it. */
export interface ConfigSource {
  readonly path: string;
  /** `flag`: given with --config; `working-directory`: ./dumpsleuth.config.json, picked up by itself. */
  readonly chosen: 'flag' | 'working-directory';
}
