/**
 * Thread names, frames and lines come from dumps: untrusted text. Terminal output must not carry
 * their control sequences (ESC, CSI, OSC, C0/C1 controls), which could rewrite the screen.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Line and paragraph breaks: a name holding one could print a fake line (a fake finding) in a report. */
const BREAKS = /[\n\r\t\u2028\u2029]+/g;
/** Bidirectional overrides and isolates: they reorder how the rest of a line reads ("Trojan Source"). */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

/** Any character the three patterns above act on: most text has none, and is returned as it is after one test. */
// eslint-disable-next-line no-control-regex
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f]/;

/** One field of untrusted text, made safe to print on one line of a terminal. */
export function stripControl(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.replace(CONTROL, '').replace(BIDI, '').replace(BREAKS, ' ');
}
