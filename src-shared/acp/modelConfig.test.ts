import { expect, it } from 'vitest';
import { orderConfigOptions } from './config';
import { decodeConfigOption } from '../../src-main/acp/decode/controls';

// rfds-model-config-category: options of category `model_config` are model parameters; clients
// render them near the `model` selector. The app orders them right after it.
it("places model_config options right after the model picker, before thought level and the rest, in the agent's order among themselves", () => {
  const raw = [
    { id: 'web', name: 'Web', type: 'boolean', currentValue: false },
    { id: 'ctx', name: 'Context size', category: 'model_config', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
    { id: 'think', name: 'Thinking', category: 'thought_level', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
    { id: 'fast', name: 'Fast mode', category: 'model_config', type: 'boolean', currentValue: true },
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
  ];
  const ordered = orderConfigOptions(raw.map(decodeConfigOption));
  expect(ordered.map((option) => option.id)).toEqual(['mode', 'model', 'ctx', 'fast', 'think', 'web']);
  expect(ordered.find((option) => option.id === 'fast')).toMatchObject({ type: 'boolean', currentValue: true, category: 'model_config' });
});
