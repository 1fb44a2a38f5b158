/** Colours per tone; the only place the UI decides how a kind of line looks. */
import type { Tone } from '../view-data.js';

export function toneProps(tone: Tone | undefined): { color?: string; bold?: boolean; dimColor?: boolean } {
  switch (tone) {
    case 'critical':
      return { color: 'red', bold: true };
    case 'error':
      return { color: 'red' };
    case 'warning':
      return { color: 'yellow' };
    case 'info':
      return { color: 'cyan' };
    case 'alert':
      return { color: 'magenta' };
    case 'ok':
      return { color: 'green' };
    case 'dim':
      return { dimColor: true };
    case 'title':
      return { bold: true };
    default:
      return {};
  }
}
