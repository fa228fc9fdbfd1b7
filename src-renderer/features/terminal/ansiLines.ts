/**
 * The last lines of a terminal's output as styled text, for a transcript row that shows a
 * finished terminal before (or instead of) mounting xterm (issue 23: a row costs what it shows).
 * It keeps what a finished log mostly is: lines, carriage-return rewrites and the SGR colours
 * and weights; cursor movement and other control sequences are dropped. xterm takes over as soon
 * as the person stays on the row, so an approximation is shown only while scrolling past.
 */
export interface AnsiSegment {
  text: string;
  /** ANSI colour 0–15. */
  fg?: number;
  bold?: boolean;
  dim?: boolean;
}

interface Style {
  fg?: number;
  bold?: boolean;
  dim?: boolean;
}

// CSI (with its parameters), OSC (up to BEL or ST) and two-character escapes.
const ESCAPE = /\u001b\[([0-9;?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

function applySgr(style: Style, params: string): Style {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i];
    if (code === 0) next = {};
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 22) next = { ...next, bold: undefined, dim: undefined };
    else if (code >= 30 && code <= 37) next.fg = code - 30;
    else if (code >= 90 && code <= 97) next.fg = code - 90 + 8;
    else if (code === 39) next.fg = undefined;
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4; // 256-colour or RGB: not kept
  }
  return next;
}

/** One line of output (no newline), its last carriage-return rewrite, as styled segments. */
function styledLine(line: string, start: Style): { segments: AnsiSegment[]; style: Style } {
  const segments: AnsiSegment[] = [];
  let style = start;
  let at = 0;
  const push = (text: string) => {
    const cut = text.lastIndexOf('\r');
    if (cut >= 0) {
      // A rewrite of the line from its start: what was written before it is gone.
      segments.length = 0;
      text = text.slice(cut + 1);
    }
    if (text) segments.push({ text, ...style });
  };
  for (const match of line.matchAll(ESCAPE)) {
    push(line.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1]);
  }
  push(line.slice(at));
  return { segments, style };
}

/** The last `count` lines of `output`, styled (an empty last line when the output ends in a newline, as xterm's cursor line). */
export function lastAnsiLines(output: string, count: number): AnsiSegment[][] {
  const lines = output.split('\n');
  const shown = lines.slice(-count);
  let style: Style = {};
  return shown.map((line) => {
    const result = styledLine(line.endsWith('\r') ? line.slice(0, -1) : line, style);
    style = result.style;
    return result.segments;
  });
}
