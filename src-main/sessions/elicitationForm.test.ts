import { describe, expect, it } from 'vitest';
import { answerProblems, formCheck, parseSchema, toContent, validate, type Value } from '../../src-shared/acp/elicitation';
import { checkElicitationAnswer } from './elicitationForm';
import { decodeElicitationRequest } from '../acp/decode/controls';
import type { ElicitationRequest } from '../../src-shared/session/controls';

/** The request of the fixture agent's `elicit` command, plus a multi-select with titled choices. */
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Project name', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email' },
    site: { type: 'string', title: 'Site', format: 'uri' },
    stars: { type: 'integer', title: 'Stars', minimum: 0, maximum: 5, default: 3 },
    ratio: { type: 'number', title: 'Ratio' },
    private: { type: 'boolean', title: 'Private', default: false },
    language: { type: 'string', title: 'Language', enum: ['ts', 'rust', 'go'] },
    tags: { type: 'array', title: 'Tags', maxItems: 2, items: { type: 'string', enum: ['web', 'cli', 'lib'] } },
    picks: {
      type: 'array',
      title: 'Picks',
      items: {
        anyOf: [
          { const: 'x', title: 'Ex' },
          { const: 'y', title: 'Why' },
        ],
      },
    },
    code: { type: 'string', title: 'Code', pattern: '^[A-Z]{3}$' },
    future: { type: 'x_future_type', title: 'Future field' },
  },
  required: ['name'],
};
const formRequest = decodeElicitationRequest({ mode: 'form', requestedSchema: schema }) as ElicitationRequest & { mode: 'form' };

/**
 * The same values typed into the form, through both paths: the form's check (what stops Accept),
 * and main's check of the content the form sends. Main words its errors differently (it names
 * the field); the verdict and the problem found must be the same.
 */
function bothPaths(values: Record<string, Value>) {
  const fields = parseSchema(schema);
  const formFound = formCheck(fields, values);
  const form = Object.entries(formFound).map(([key, problem]) => ({ key, problem }));
  const content = toContent(fields, values);
  const main = answerProblems(schema, content).map(({ key, problem }) => ({ key, problem }));
  const mainErrors = checkElicitationAnswer(formRequest, content);
  return { form, main, mainErrors };
}

describe('the elicitation form and main give the same answer for every input', () => {
  const cases: [string, Record<string, Value>, 'accept' | 'refuse'][] = [
    ['the minimum', { name: 'acme' }, 'accept'],
    [
      'everything filled in',
      {
        name: 'acme',
        email: 'a@b.co',
        site: 'https://x.dev',
        stars: '4',
        ratio: '0.5',
        private: true,
        language: 'go',
        tags: ['web', 'lib'],
        picks: ['y'],
        code: 'ABC',
      },
      'accept',
    ],
    ['required field empty', { name: '' }, 'refuse'],
    ['too short', { name: 'a' }, 'refuse'],
    // The defect: main took any text as an email, only the form refused it.
    ['a malformed email', { name: 'acme', email: 'not-an-email' }, 'refuse'],
    ['a malformed address', { name: 'acme', site: 'example.com' }, 'refuse'],
    ['a number out of range', { name: 'acme', stars: '9' }, 'refuse'],
    ['not a whole number', { name: 'acme', stars: '1.5' }, 'refuse'],
    ['not a number', { name: 'acme', ratio: 'abc' }, 'refuse'],
    ['an enum value outside the list', { name: 'acme', language: 'cobol' }, 'refuse'],
    // The defect: the form let a multi-select value outside the list through; main refused it.
    ['a multi-select value outside the list', { name: 'acme', tags: ['web', 'x'] }, 'refuse'],
    ['an anyOf multi-select value outside the list', { name: 'acme', picks: ['z'] }, 'refuse'],
    ['too many choices', { name: 'acme', tags: ['web', 'cli', 'lib'] }, 'refuse'],
    ['a pattern mismatch', { name: 'acme', code: 'abc' }, 'refuse'],
    ['a field of an unknown type is left to the agent', { name: 'acme', future: 'anything' }, 'accept'],
  ];

  it.each(cases)('%s', (_label, values, verdict) => {
    const { form, main, mainErrors } = bothPaths(values);
    expect(main).toEqual(form);
    expect(form.length === 0 ? 'accept' : 'refuse').toBe(verdict);
    expect(mainErrors.length === 0 ? 'accept' : 'refuse').toBe(verdict);
  });

  it('main also refuses what no form produces: unknown fields, wrongly typed values', () => {
    const request = formRequest;
    expect(checkElicitationAnswer(request, { name: 'acme', extra: 1 })).toEqual(['"extra" is not one of the fields asked for.']);
    expect(checkElicitationAnswer(request, { name: 5 })).toEqual(['"Project name" must be text.']);
    expect(checkElicitationAnswer(request, { name: 'acme', stars: '4' })).toEqual(['"Stars" must be a number.']);
    expect(checkElicitationAnswer(request, { name: 'acme', private: 'yes' })).toEqual(['"Private" must be yes or no.']);
    expect(checkElicitationAnswer(request, { name: 'acme', tags: 'web' })).toEqual(['"Tags" must be a list.']);
    expect(checkElicitationAnswer(request, {})).toEqual(['"Project name" is required.']);
  });

  it('defect: a multi-select value outside the list and a malformed email are refused by both the form and main', () => {
    const fields = parseSchema(schema);
    const formRefuses = (values: Record<string, Value>) => fields.some((f) => validate(f, values[f.key]) !== null);
    const mainRefuses = (values: Record<string, Value>) => checkElicitationAnswer(formRequest, toContent(fields, values)).length > 0;
    const outsideList = { name: 'acme', tags: ['web', 'x'] };
    const badEmail = { name: 'acme', email: 'not-an-email' };
    expect([formRefuses(outsideList), mainRefuses(outsideList)]).toEqual([true, true]);
    expect([formRefuses(badEmail), mainRefuses(badEmail)]).toEqual([true, true]);
  });
});
