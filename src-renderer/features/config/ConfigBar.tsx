import { useId, useState } from 'react';
import { flatOptions, orderConfigOptions } from '../../../src-shared/acp/config';
import type { ConfigOption, SessionModes } from '../../../src-shared/session/controls';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { setConfigOption, setMode } from './actions';
import './modelGroup.css';

const NO_OPTIONS: ConfigOption[] = [];

/**
 * The session's config options above the composer: a select per `select` option (groups as
 * optgroups), a switch per `boolean` one; legacy modes as a select when there are no config
 * options. The agent's own changes arrive as the same events, so they show at once.
 */
export function ConfigBar({ sessionId }: { sessionId: string }) {
  const options = useStore((s) => s.sessions[sessionId]?.configOptions ?? NO_OPTIONS);
  const modes = useStore((s) => s.sessions[sessionId]?.modes ?? null);
  const connected = useStore((s) => Boolean(s.sessions[sessionId]?.acpSessionId));
  const agentName = useStore((s) => s.sessions[sessionId]?.agentName ?? 'The agent');
  const ordered = orderConfigOptions(options);
  const shown = ordered.filter((o) => o.type !== 'unknown');
  const unsupported = ordered.filter((o) => o.type === 'unknown');
  const useModes = shown.length === 0 && modes && modes.availableModes.length > 0;
  const hasModel = shown.some((o) => o.category === 'model');
  if (!connected) return null;
  return (
    <div className="config-bar" role="toolbar" aria-label="Session options">
      {shown.map((option, index) => {
        // The model picker and its parameters (`model_config`, rfds-model-config-category) sit
        // together, in one group where the first of them is (orderConfigOptions puts them in a row).
        if (!isModelOption(option)) return renderOption(sessionId, option);
        if (index !== shown.findIndex(isModelOption)) return null;
        return (
          <div key="model-group" className="config-model-group" role="group" aria-label="Model settings">
            {shown.filter(isModelOption).map((modelOption) => renderOption(sessionId, modelOption))}
          </div>
        );
      })}
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
          text={`This app cannot show: ${unsupported.map((o) => `${o.name} (type ${o.type === 'unknown' ? o.typeName : o.type})`).join(', ')}. The agent keeps using their defaults.`}
        />
      )}
    </div>
  );
}

const isModelOption = (option: ConfigOption) => option.category === 'model' || option.category === 'model_config';

function renderOption(sessionId: string, option: ConfigOption) {
  if (option.type === 'boolean') return <BooleanOption key={option.id} sessionId={sessionId} option={option} />;
  if (option.type === 'select') return <SelectOption key={option.id} sessionId={sessionId} option={option} />;
  return null;
}

function SelectOption({ sessionId, option }: { sessionId: string; option: Extract<ConfigOption, { type: 'select' }> }) {
  const id = useId();
  const current = option.currentValue;
  const flat = flatOptions(option);
  const description = flat.find((v) => v.value === current)?.description;
  const known = flat.some((v) => v.value === current);
  return (
    <div
      className={`config-control category-${option.category ?? 'none'}`}
      title={[option.description ?? '', description ?? ''].filter(Boolean).join(' — ') || undefined}
    >
      <label className="config-label" htmlFor={id}>
        {option.name}
      </label>
      <select id={id} value={current} onChange={(event) => setConfigOption(sessionId, option.id, event.target.value)}>
        {!known && <option value={current}>{current || '—'}</option>}
        {option.options.map((v) =>
          'options' in v ? (
            <optgroup key={v.group} label={v.name}>
              {v.options.map((o) => (
                <option key={o.value} value={o.value} title={o.description}>
                  {o.name}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={v.value} value={v.value} title={v.description}>
              {v.name}
            </option>
          ),
        )}
      </select>
    </div>
  );
}

function BooleanOption({ sessionId, option }: { sessionId: string; option: Extract<ConfigOption, { type: 'boolean' }> }) {
  const checked = option.currentValue;
  return (
    <label className="config-control config-switch" title={option.description}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        onChange={(event) => setConfigOption(sessionId, option.id, event.target.checked)}
      />
      <span className="switch-track" aria-hidden="true" />
      <span className="config-label">{option.name}</span>
    </label>
  );
}

function ModeSelect({ sessionId, modes }: { sessionId: string; modes: SessionModes }) {
  const id = useId();
  return (
    <div className="config-control category-mode">
      <label className="config-label" htmlFor={id}>
        Mode
      </label>
      <select id={id} value={modes.currentModeId ?? ''} onChange={(event) => setMode(sessionId, event.target.value)}>
        {modes.availableModes.map((mode) => (
          <option key={mode.id} value={mode.id} title={mode.description}>
            {mode.name}
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
