import { KNOWN_CONFIG_CATEGORIES, KNOWN_CONFIG_OPTION_TYPES, isKnown } from './known';
import { memoView, objects, str, type Raw } from './read';

export type SelectValue = { value: string; name: string; description?: string };
export type SelectGroup = { group: string; name: string; options: SelectValue[] };

interface OptionBase {
  id: string;
  name: string;
  description?: string;
  /** `mode`, `model`, `model_config`, `thought_level`, or another (future, `_` extension) category. */
  category?: string;
  raw: Raw;
}

/** A session config option (`SessionConfigOption`), typed by `type`; `unknown` keeps another type raw. */
export type ConfigOptionView =
  | (OptionBase & { type: 'select'; currentValue: string; options: (SelectValue | SelectGroup)[]; flat: SelectValue[] })
  | (OptionBase & { type: 'boolean'; currentValue: boolean })
  | (OptionBase & { type: 'unknown'; typeName: string });

const selectValue = (raw: Raw): SelectValue => {
  const value = String(raw.value ?? '');
  return { value, name: str(raw.name) ?? value, description: str(raw.description) };
};

export const configOptionView = memoView((raw): ConfigOptionView => {
  const id = String(raw.id ?? '');
  const base: OptionBase = { id, name: str(raw.name) ?? id, description: str(raw.description), category: str(raw.category), raw };
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_CONFIG_OPTION_TYPES, type)) return { ...base, type: 'unknown', typeName: type || '(no type)' };
  if (type === 'select') {
    const options = objects(raw.options).map((item): SelectValue | SelectGroup =>
      Array.isArray(item.options)
        ? { group: String(item.group ?? ''), name: str(item.name) ?? String(item.group ?? ''), options: objects(item.options).map(selectValue) }
        : selectValue(item),
    );
    const flat = options.flatMap((o) => ('options' in o ? o.options : [o]));
    return { ...base, type, currentValue: String(raw.currentValue ?? ''), options, flat };
  }
  return { ...base, type, currentValue: raw.currentValue === true };
});

/** Known categories first (mode, model, its parameters, thought level), then the rest in the agent's order. */
export function orderConfigOptions(options: readonly ConfigOptionView[]): ConfigOptionView[] {
  const order = KNOWN_CONFIG_CATEGORIES as readonly string[];
  const rank = (o: ConfigOptionView) => {
    const i = order.indexOf(o.category ?? '');
    return i === -1 ? order.length : i;
  };
  return options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => rank(a.option) - rank(b.option) || a.index - b.index)
    .map((x) => x.option);
}

/** A legacy session mode (`SessionMode`). */
export type ModeView = { id: string; name: string; description?: string; raw: Raw };
export const modeView = memoView((raw): ModeView => {
  const id = String(raw.id ?? '');
  return { id, name: str(raw.name) ?? id, description: str(raw.description), raw };
});

/** A slash command the agent offers (`AvailableCommand`). */
export type CommandView = { name: string; description?: string; hint?: string; raw: Raw };
export const commandView = memoView((raw): CommandView => {
  const input = raw.input;
  const hint = typeof input === 'object' && input !== null ? str((input as Raw).hint) : undefined;
  return { name: String(raw.name ?? ''), description: str(raw.description), hint, raw };
});
