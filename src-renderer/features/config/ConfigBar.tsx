import { useId, useState } from 'react';
import type { RawObject } from '../../../src-shared/session/events';
import { EMPTY, useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { setConfigOption, setMode } from './actions';

const CATEGORY_ORDER = ['mode', 'model', 'model_config', 'thought_level'];

/** Known categories first (mode, model, its parameters, thought level), then the rest in the agent's order. */
export function orderConfigOptions(options: readonly RawObject[]): RawObject[] {
  const rank = (o: RawObject) => {
    const i = CATEGORY_ORDER.indexOf(String(o.category ?? ''));
    return i === -1 ? CATEGORY_ORDER.length : i;
  };
  return options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => rank(a.option) - rank(b.option) || a.index - b.index)
    .map((x) => x.option);
}

interface SelectValue {
  value: string;
  name: string;
  description?: string;
}
interface SelectGroup {
  group: string;
  name: string;
  options: SelectValue[];
}

/**
 * The session's config options above the composer: a select per `select` option (groups as
 * optgroups), a switch per `boolean` one; legacy modes as a select when there are no config
 * options. The agent's own changes arrive as the same events, so they show at once.
 */
export function ConfigBar({ sessionId }: { sessionId: string }) {
  const options = useStore((s) => s.sessions[sessionId]?.configOptions ?? (EMPTY as unknown as RawObject[]));
  const modes = useStore((s) => s.sessions[sessionId]?.modes ?? null);
  const connected = useStore((s) => Boolean(s.sessions[sessionId]?.acpSessionId));
  const agentName = useStore((s) => s.sessions[sessionId]?.agentName ?? 'The agent');
  const ordered = orderConfigOptions(options);
  const shown = ordered.filter((o) => o.type === 'select' || o.type === 'boolean');
  const unsupported = ordered.filter((o) => o.type !== 'select' && o.type !== 'boolean');
  const useModes = shown.length === 0 && modes && modes.availableModes.length > 0;
  const hasModel = shown.some((o) => o.category === 'model');
  if (!connected) return null;
  return (
    <div className="config-bar" role="toolbar" aria-label="Session options">
      {shown.map((option) =>
        option.type === 'boolean' ? (
          <BooleanOption key={String(option.id)} sessionId={sessionId} option={option} />
        ) : (
          <SelectOption key={String(option.id)} sessionId={sessionId} option={option} />
        ),
      )}
      {useModes && <ModeSelect sessionId={sessionId} modes={modes} />}
      {!hasModel && (
        <MissingInfo
          label="No model picker"
          text={`${agentName} did not offer a model option for this session, so there is no model to choose here. Agents that support it send a config option with the “model” category.`}
        />
      )}
      {unsupported.length > 0 && (
        <MissingInfo
          label={`${unsupported.length} option${unsupported.length === 1 ? '' : 's'} not shown`}
          text={`This app cannot show: ${unsupported.map((o) => `${String(o.name ?? o.id)} (type ${String(o.type)})`).join(', ')}. The agent keeps using their defaults.`}
        />
      )}
    </div>
  );
}

function SelectOption({ sessionId, option }: { sessionId: string; option: RawObject }) {
  const id = useId();
  const values = Array.isArray(option.options) ? (option.options as (SelectValue | SelectGroup)[]) : [];
  const current = String(option.currentValue ?? '');
  const flat = values.flatMap((v) => ('options' in v && Array.isArray(v.options) ? v.options : [v as SelectValue]));
  const description = flat.find((v) => v.value === current)?.description;
  const known = flat.some((v) => v.value === current);
  return (
    <div className={`config-control category-${String(option.category ?? 'none')}`} title={[String(option.description ?? ''), description ?? ''].filter(Boolean).join(' — ') || undefined}>
      <label className="config-label" htmlFor={id}>
        {String(option.name ?? option.id)}
      </label>
      <select
        id={id}
        value={current}
        onChange={(event) => setConfigOption(sessionId, String(option.id), event.target.value)}
      >
        {!known && <option value={current}>{current || '—'}</option>}
        {values.map((v) =>
          'options' in v && Array.isArray(v.options) ? (
            <optgroup key={v.group} label={v.name ?? v.group}>
              {v.options.map((o) => (
                <option key={o.value} value={o.value} title={o.description}>
                  {o.name}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={(v as SelectValue).value} value={(v as SelectValue).value} title={(v as SelectValue).description}>
              {(v as SelectValue).name}
            </option>
          ),
        )}
      </select>
    </div>
  );
}

function BooleanOption({ sessionId, option }: { sessionId: string; option: RawObject }) {
  const checked = option.currentValue === true;
  return (
    <label className="config-control config-switch" title={typeof option.description === 'string' ? option.description : undefined}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        onChange={(event) => setConfigOption(sessionId, String(option.id), event.target.checked)}
      />
      <span className="switch-track" aria-hidden="true" />
      <span className="config-label">{String(option.name ?? option.id)}</span>
    </label>
  );
}

function ModeSelect({ sessionId, modes }: { sessionId: string; modes: { currentModeId: string | null; availableModes: RawObject[] } }) {
  const id = useId();
  return (
    <div className="config-control category-mode">
      <label className="config-label" htmlFor={id}>
        Mode
      </label>
      <select id={id} value={modes.currentModeId ?? ''} onChange={(event) => setMode(sessionId, event.target.value)}>
        {modes.availableModes.map((mode) => (
          <option key={String(mode.id)} value={String(mode.id)} title={typeof mode.description === 'string' ? mode.description : undefined}>
            {String(mode.name ?? mode.id)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An info button whose popover says why an expected control is missing. */
function MissingInfo({ label, text }: { label: string; text: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="missing-info">
      <button
        type="button"
        className="link-button muted"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Why: ${label}`}
        onClick={() => setOpen(!open)}
        onBlur={() => setOpen(false)}
      >
        <Icon name="info" /> {label}
      </button>
      {open && (
        <span id={id} role="tooltip" className="popover">
          {text}
        </span>
      )}
    </span>
  );
}
