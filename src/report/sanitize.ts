/**
 * Thread names, frames and lines come from dumps: untrusted text. Terminal output must not carry
 * their control sequences (ESC, CSI, OSC, C0/C1 controls), which could rewrite the screen.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControl(text: string): string {
  return text.replace(CONTROL, '');
}
