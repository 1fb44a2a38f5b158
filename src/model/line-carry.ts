/**
 * The start of a line whose end is in a later chunk of text. A line is kept up to MAX_LINE_CHARS
 * and the rest of it dropped: a file with no line end for hundreds of megabytes (a sparse file,
 * random data, a long run of one character) would otherwise grow one string past what the engine
 * can hold. No line of a thread dump comes near the limit, and a log line that carries a whole dump
 * (escaped in a JSON message) is still far under it.
 */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

export class LineCarry {
  private text = '';
  private cutting = false;
  /** Lines cut at the limit so far. */
  cut = 0;

  constructor(private readonly maxChars = MAX_LINE_CHARS) {}

  get isEmpty(): boolean {
    return this.text.length === 0 && !this.cutting;
  }

  /** Adds a piece of the open line (none of it a line end). */
  add(piece: string): void {
    if (this.cutting) return;
    const room = this.maxChars - this.text.length;
    if (piece.length > room) {
      this.text += piece.slice(0, room);
      this.cutting = true;
      this.cut++;
      return;
    }
    this.text += piece;
  }

  /** The open line, completed with `end` (what comes before the line end); the carry is empty after. */
  close(end = ''): string {
    this.add(end);
    const line = this.text;
    this.text = '';
    this.cutting = false;
    return line;
  }
}

/** The warning for lines cut at the limit. */
export function linesCutWarning(cut: number, maxChars = MAX_LINE_CHARS): string {
  const one = cut === 1;
  const lines = `${cut} line${one ? '' : 's'} longer than ${maxChars} characters ${one ? 'was' : 'were'}`;
  return `${lines} cut at that length; the rest of ${one ? 'it' : 'each'} was not read`;
}
