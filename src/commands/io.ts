/** What a command reads and writes besides its files: the process's streams and environment (or a test's), and the version it reports. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
}
