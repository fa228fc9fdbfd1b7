import { Fragment, type ReactNode } from 'react';

/**
 * Text an agent chose, shown where a person reads or approves it (titles, file names, commands,
 * option labels). Two defences against bidirectional-text tricks (Trojan Source, CVE-2021-42574):
 * the text is isolated (`<bdi>`: it cannot reorder the app's own words around it, nor they it),
 * and its embedding, override, isolate and mark characters are shown as visible markers
 * (`⟨U+202E⟩`) instead of acting: "Open \u202Eexe.txt" used to read "Open txt.exe".
 */
export function AgentText({ text }: { text: string }) {
  return <bdi>{revealBidiNodes(text)}</bdi>;
}

/** U+202A–U+202E (embeddings, overrides), U+2066–U+2069 (isolates), U+200E/U+200F/U+061C (marks). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

const NAMES: Record<string, string> = {
  '\u202A': 'left-to-right embedding',
  '\u202B': 'right-to-left embedding',
  '\u202C': 'pop directional formatting',
  '\u202D': 'left-to-right override',
  '\u202E': 'right-to-left override',
  '\u2066': 'left-to-right isolate',
  '\u2067': 'right-to-left isolate',
  '\u2068': 'first strong isolate',
  '\u2069': 'pop directional isolate',
  '\u200E': 'left-to-right mark',
  '\u200F': 'right-to-left mark',
  '\u061C': 'Arabic letter mark',
};

/** `⟨U+202E⟩` for one control character. */
function marker(char: string): string {
  return `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Whether `text` holds a bidirectional control character. */
function hasBidiControls(text: string): boolean {
  return ANY_BIDI_CONTROL.test(text);
}
const ANY_BIDI_CONTROL = new RegExp(BIDI_CONTROLS.source);

/** The text with each bidirectional control character replaced by its visible marker (for labels, titles and other plain strings). */
export function revealBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, marker);
}

/** The text as React nodes: each control character a marker that is read out by its name. */
function revealBidiNodes(text: string): ReactNode {
  if (!hasBidiControls(text)) return text;
  const nodes: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(BIDI_CONTROLS)) {
    if (match.index > from) nodes.push(text.slice(from, match.index));
    const char = match[0];
    nodes.push(
      <span
        key={match.index}
        className="bidi-control"
        role="img"
        aria-label={`hidden character: ${NAMES[char]}`}
        title={`${NAMES[char]} character (${marker(char)}), shown instead of reordering the text`}
      >
        {marker(char)}
      </span>,
    );
    from = match.index + 1;
  }
  if (from < text.length) nodes.push(text.slice(from));
  return <Fragment>{nodes}</Fragment>;
}
