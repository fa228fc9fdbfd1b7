import { useEffect, useId, useRef, useState } from 'react';
import type { PendingElicitation } from '../../../src-shared/session/state';
import type { ElicitationContent } from '../../../src-shared/session/controls';
import { Icon } from '../../ui/Icon';
import { UnknownBox } from '../../ui/UnknownBox';
import { formProblems, initialValue, toContent, type Field, type Value } from '../../../src-shared/acp/elicitation';
import { answerElicitation } from './actions';

type Action = 'accept' | 'decline' | 'cancel';

/** A question from the agent: a form (restricted JSON Schema) or a URL to open, answered Accept / Decline / Cancel. */
export function ElicitationCard({ sessionId, elicitation }: { sessionId: string; elicitation: PendingElicitation }) {
  const request = elicitation.request;
  const message = request.message ?? 'The agent has a question.';
  const headingId = useId();
  const respond = (action: Action, content?: ElicitationContent) => answerElicitation(sessionId, elicitation.requestId, action, content);

  return (
    <section className="elicitation" aria-labelledby={headingId}>
      <h2 id={headingId} className="elicitation-title">
        <Icon name="info" /> {message}
      </h2>
      {request.mode === 'form' ? (
        <ElicitationForm requestId={elicitation.requestId} fields={request.fields} onRespond={respond} />
      ) : request.mode === 'url' ? (
        <UrlElicitation url={request.url ?? ''} onRespond={respond} />
      ) : (
        <>
          <UnknownBox label={`question of mode ${request.modeName}`} raw={request.raw} />
          <p className="muted small">This app does not know this kind of question, so it can only be declined.</p>
          <div className="form-actions">
            <button type="button" onClick={() => respond('decline')}>
              Decline
            </button>
            <button type="button" onClick={() => respond('cancel')}>
              Cancel
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function ElicitationForm({
  requestId,
  fields,
  onRespond,
}: {
  requestId: string;
  fields: Field[];
  onRespond: (action: Action, content?: ElicitationContent) => void;
}) {
  const [values, setValues] = useState<Record<string, Value>>(() => Object.fromEntries(fields.map((f) => [f.key, initialValue(f)])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const unsupported = fields.some((f) => f.kind === 'unsupported');
  const prefix = useId();

  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [requestId]);

  const check = (next: Record<string, Value>) => formProblems(fields, next);
  const set = (key: string, value: Value) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (touched) setErrors(check(next));
  };

  return (
    <form
      ref={form}
      className="elicitation-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (unsupported) return;
        const found = check(values);
        setErrors(found);
        setTouched(true);
        const first = fields.find((f) => found[f.key]);
        if (first) {
          form.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(first.key)}"]`)?.focus();
          return;
        }
        onRespond('accept', toContent(fields, values));
      }}
    >
      {fields.map((field) => (
        <FieldView
          key={field.key}
          id={`${prefix}-${field.key}`}
          field={field}
          value={values[field.key]}
          error={errors[field.key]}
          onChange={(v) => set(field.key, v)}
        />
      ))}
      {unsupported && (
        <p className="form-error" role="note">
          This form has a field this app cannot show, so it can only be declined.
        </p>
      )}
      {touched && Object.keys(errors).length > 0 && (
        <p className="form-error" role="alert">
          Fix the {Object.keys(errors).length === 1 ? 'field' : `${Object.keys(errors).length} fields`} marked above.
        </p>
      )}
      <div className="form-actions">
        <button type="button" onClick={() => onRespond('cancel')}>
          Cancel
        </button>
        <button type="button" onClick={() => onRespond('decline')}>
          Decline
        </button>
        <button type="submit" className="primary" disabled={unsupported}>
          Accept
        </button>
      </div>
    </form>
  );
}

function FieldView({ id, field, value, error, onChange }: { id: string; field: Field; value: Value; error?: string; onChange: (value: Value) => void }) {
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = [field.description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'data-field': field.key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };
  const label = (
    <>
      {field.title}
      {field.required && (
        <span aria-hidden="true" className="required">
          {' '}
          *
        </span>
      )}
    </>
  );
  const extra = (
    <>
      {field.description && (
        <span id={descriptionId} className="field-description muted small">
          {field.description}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </>
  );
  switch (field.kind) {
    case 'text': {
      const type =
        field.format === 'email'
          ? 'email'
          : field.format === 'uri'
            ? 'url'
            : field.format === 'date'
              ? 'date'
              : field.format === 'date-time'
                ? 'datetime-local'
                : 'text';
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input
            {...common}
            type={type}
            value={String(value ?? '')}
            minLength={field.minLength}
            maxLength={field.maxLength}
            onChange={(e) => onChange(e.target.value)}
          />
          {extra}
        </div>
      );
    }
    case 'number':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input
            {...common}
            type="number"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            step={field.integer ? 1 : 'any'}
            min={field.minimum}
            max={field.maximum}
            value={value === undefined ? '' : String(value)}
            onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
          />
          {extra}
        </div>
      );
    case 'boolean':
      return (
        <div className="field field-check">
          <label>
            <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            {label}
          </label>
          {extra}
        </div>
      );
    case 'select':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select {...common} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
            {(!field.required || !value) && <option value="">{field.required ? 'Choose…' : '(none)'}</option>}
            {field.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.title}
              </option>
            ))}
          </select>
          {extra}
        </div>
      );
    case 'multi': {
      const list = Array.isArray(value) ? value : [];
      return (
        <fieldset className="field field-multi" aria-describedby={describedBy} aria-invalid={error ? true : undefined} data-field={field.key} tabIndex={-1}>
          <legend>{label}</legend>
          <div className="choices">
            {field.choices.map((c) => (
              <label key={c.value} className="choice">
                <input
                  type="checkbox"
                  checked={list.includes(c.value)}
                  onChange={(e) => onChange(e.target.checked ? [...list, c.value] : list.filter((v) => v !== c.value))}
                />
                {c.title}
              </label>
            ))}
          </div>
          {extra}
        </fieldset>
      );
    }
    default:
      return (
        <div className="field field-unsupported">
          <span className="field-label">{label}</span>
          <UnknownBox
            label={`unsupported field ${field.title} (${field.kind === 'unsupported' ? field.why : ''})`}
            raw={field.kind === 'unsupported' ? field.raw : null}
          />
        </div>
      );
  }
}

function UrlElicitation({ url, onRespond }: { url: string; onRespond: (action: Action) => void }) {
  const [confirming, setConfirming] = useState(false);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  const safe = parsed && (parsed.protocol === 'https:' || parsed.protocol === 'http:');
  const host = parsed?.hostname ?? '';
  const warnings: string[] = [];
  if (!parsed) warnings.push('This is not a valid address.');
  else if (!safe) warnings.push(`Only web addresses can be opened (this one is ${parsed.protocol}).`);
  else if (parsed.protocol === 'http:') warnings.push('This address is not encrypted (http).');
  if (host.split('.').some((label) => label.startsWith('xn--')))
    warnings.push('The domain uses international characters (punycode); check that it is the site you expect.');
  return (
    <div className="url-elicitation">
      <p className="muted small">The agent asks you to open this page in your browser. Nothing is opened until you confirm.</p>
      <p className="url-domain">
        Domain: <strong>{host || '(none)'}</strong>
      </p>
      <code className="url-full" aria-label="Full address">
        {url}
      </code>
      {warnings.map((w) => (
        <p key={w} className="form-error">
          {w}
        </p>
      ))}
      {confirming ? (
        <div className="form-actions confirm" role="group" aria-label="Confirm opening">
          <span>
            Open <strong>{host}</strong> in your browser?
          </span>
          <button type="button" onClick={() => setConfirming(false)}>
            Back
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              window.open(url, '_blank', 'noopener,noreferrer');
              onRespond('accept');
            }}
          >
            Yes, open it
          </button>
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" onClick={() => onRespond('cancel')}>
            Cancel
          </button>
          <button type="button" onClick={() => onRespond('decline')}>
            Decline
          </button>
          <button type="button" className="primary" disabled={!safe} onClick={() => setConfirming(true)}>
            <Icon name="external" /> Open in browser…
          </button>
        </div>
      )}
    </div>
  );
}
