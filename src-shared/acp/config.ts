import { KNOWN_CONFIG_CATEGORIES } from './known';
import type { ConfigOption, SelectValue } from '../session/controls';

/** A select option's values with groups flattened (what the current value is looked up in). */
export function flatOptions(option: ConfigOption & { type: 'select' }): SelectValue[] {
  return option.options.flatMap((o) => ('options' in o ? o.options : [o]));
}

/** Known categories first (mode, model, its parameters, thought level), then the rest in the agent's order. */
export function orderConfigOptions(options: readonly ConfigOption[]): ConfigOption[] {
  const order = KNOWN_CONFIG_CATEGORIES as readonly string[];
  const rank = (o: ConfigOption) => {
    const i = order.indexOf(o.category ?? '');
    return i === -1 ? order.length : i;
  };
  return options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => rank(a.option) - rank(b.option) || a.index - b.index)
    .map((x) => x.option);
}
