import { describe, expect, it } from 'vitest';
import { initialValue, parseSchema, toContent, toLocalDateTime, validate } from './elicitation';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    when: { type: 'string', format: 'date' },
    count: { type: 'integer', minimum: 1, maximum: 3, default: 2 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    color: {
      type: 'string',
      oneOf: [
        { const: '#f00', title: 'Red' },
        { const: '#0f0', title: 'Green' },
      ],
    },
    size: { type: 'string', enum: ['s', 'm'] },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    picks: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
    future: { type: '_blob' },
    phone: { type: 'string', format: 'phone' },
  },
  required: ['name', 'tags'],
};

describe('elicitation schema', () => {
  const fields = parseSchema(schema);
  const field = (key: string) => fields.find((f) => f.key === key)!;

  it('maps the restricted JSON Schema to fields, keeping what it cannot show as unsupported', () => {
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ['name', 'text'],
      ['email', 'text'],
      ['site', 'text'],
      ['when', 'text'],
      ['count', 'number'],
      ['ratio', 'number'],
      ['ok', 'boolean'],
      ['color', 'select'],
      ['size', 'select'],
      ['tags', 'multi'],
      ['picks', 'multi'],
      ['future', 'unsupported'],
      ['phone', 'unsupported'],
    ]);
    expect(field('color')).toMatchObject({
      choices: [
        { value: '#f00', title: 'Red' },
        { value: '#0f0', title: 'Green' },
      ],
    });
    expect(initialValue(field('count'))).toBe(2);
    expect(initialValue(field('ok'))).toBe(true);
  });

  it('validates before sending', () => {
    expect(validate(field('name'), '')).toBe('Name is required.');
    expect(validate(field('name'), 'a')).toMatch(/at least 2/);
    expect(validate(field('name'), 'abcdef')).toMatch(/at most 5/);
    expect(validate(field('name'), 'AB')).toMatch(/pattern/);
    expect(validate(field('name'), 'ab')).toBeNull();
    expect(validate(field('email'), 'nope')).toMatch(/email/);
    expect(validate(field('site'), 'example.com')).toMatch(/full address/);
    expect(validate(field('site'), 'https://example.com')).toBeNull();
    expect(validate(field('count'), '1.5')).toMatch(/whole number/);
    expect(validate(field('count'), '4')).toMatch(/at most 3/);
    expect(validate(field('tags'), [])).toMatch(/required/);
    expect(validate(field('tags'), ['a', 'b', 'c'])).toMatch(/at most 2/);
    expect(validate(field('email'), '')).toBeNull();
  });

  it('sends typed values and leaves empty optional fields out', () => {
    expect(toContent(fields, { name: 'ab', count: '3', ratio: '', ok: false, tags: ['a'], email: '' })).toEqual({
      name: 'ab',
      count: 3,
      ok: false,
      tags: ['a'],
    });
  });

  it('shows an ISO date-time default (Z or offset) as the local value a datetime-local input takes, and sends ISO back', () => {
    const [when] = parseSchema({ type: 'object', properties: { when: { type: 'string', format: 'date-time', default: '2026-03-14T15:09:00Z' } } });
    const local = initialValue(when!) as string;
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const d = new Date('2026-03-14T15:09:00Z');
    expect(local).toBe(
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`,
    );
    expect(validate(when!, local)).toBeNull();
    expect(toContent([when!], { when: local })).toEqual({ when: '2026-03-14T15:09:00.000Z' });
    // An offset is converted too; seconds are kept; values without a zone or that do not parse stay as they are.
    expect(toContent([when!], { when: toLocalDateTime('2026-03-14T17:09:30+02:00') })).toEqual({ when: '2026-03-14T15:09:30.000Z' });
    expect(toLocalDateTime('2026-03-14T15:09')).toBe('2026-03-14T15:09');
    expect(toLocalDateTime('not a date Z')).toBe('not a date Z');
  });

  it('says what the form shows in the words the person reads (the e2e form test looks for them)', () => {
    const form = parseSchema({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Project name', minLength: 2 },
        email: { type: 'string', title: 'Email', format: 'email' },
        stars: { type: 'integer', title: 'Stars', minimum: 0, maximum: 5 },
      },
      required: ['name'],
    });
    const [name, email, stars] = form;
    expect(validate(name!, '')).toBe('Project name is required.');
    expect(validate(name!, 'x')).toBe('Use at least 2 characters.');
    expect(validate(email!, 'not-an-email')).toBe('Enter an email address, like name@example.com.');
    expect(validate(stars!, '9')).toBe('Must be at most 5.');
  });
});
