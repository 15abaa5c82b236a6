import { describe, expect, it } from 'vitest';
import { WORK_MESSAGE_TEMPLATE } from '../../../../lib/job-stream-definition.js';
import { checkPattern, matchesPattern } from '../../../../local/assembly/event-pattern.js';
import { renderInputTemplate } from '../../../../local/stream-pipe.js';

/** A DynamoDB stream record as a Pipe receives it. */
const inserted = (pk: string, lane: string) => ({
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    NewImage: {
      pk: { S: pk },
      id: { S: 'job_7Kc2GdQx1bWm9pRs' },
      work_lane: { S: lane },
      tags: { SS: ['a', 'b'] },
      size: { N: '5' },
    },
  },
});

describe('EventBridge patterns (the filters of Pipes and event source mappings)', () => {
  const lanePattern = {
    eventName: ['INSERT'],
    dynamodb: { NewImage: { pk: { S: [{ prefix: 'JOB#' }] }, work_lane: { S: ['standard'] } } },
  };

  it("passes the job stream's records to the lane they name, and nothing else", () => {
    expect(matchesPattern(lanePattern, inserted('JOB#1', 'standard'))).toBe(true);
    expect(matchesPattern(lanePattern, inserted('JOB#1', 'fast'))).toBe(false);
    expect(matchesPattern(lanePattern, inserted('KEY#1', 'standard'))).toBe(false);
    expect(matchesPattern(lanePattern, { ...inserted('JOB#1', 'standard'), eventName: 'MODIFY' })).toBe(false);
  });

  it('matches any element of an array value, and implements anything-but, suffix, exists, equals-ignore-case and numeric', () => {
    const image = (pattern: object) => matchesPattern({ dynamodb: { NewImage: pattern } }, inserted('JOB#1', 'fast'));
    expect(image({ tags: { SS: ['b'] } })).toBe(true);
    expect(image({ work_lane: { S: [{ 'anything-but': ['standard'] }] } })).toBe(true);
    expect(image({ work_lane: { S: [{ 'anything-but': { prefix: 'fa' } }] } })).toBe(false);
    expect(image({ id: { S: [{ suffix: 'pRs' }] } })).toBe(true);
    expect(image({ missing: [{ exists: false }] })).toBe(true);
    expect(image({ id: [{ exists: false }] })).toBe(false);
    expect(image({ work_lane: { S: [{ 'equals-ignore-case': 'FAST' }] } })).toBe(true);
    expect(matchesPattern({ n: [{ numeric: ['>', 3, '<=', 5] }] }, { n: 5 })).toBe(true);
    expect(matchesPattern({ n: [{ numeric: ['>', 5] }] }, { n: 5 })).toBe(false);
  });

  it('refuses at start a filter it does not implement, rather than mis-filtering later', () => {
    expect(() => checkPattern({ detail: { x: [{ wildcard: '*.png' }] } }, 'MyPipe')).toThrow(/MyPipe: .*"wildcard"/);
    expect(() => checkPattern(lanePattern, 'JobStream')).not.toThrow();
  });
});

describe('input templates of Pipes', () => {
  it("renders the job stream's work message from a record", () => {
    expect(JSON.parse(renderInputTemplate(WORK_MESSAGE_TEMPLATE, inserted('JOB#1', 'standard')))).toEqual({
      job_id: 'job_7Kc2GdQx1bWm9pRs',
    });
  });

  it('escapes strings inside quotes, writes other values as JSON, and missing paths as null', () => {
    const event = { a: { quote: 'say "hi"', list: [1, 2] } };
    expect(
      JSON.parse(
        renderInputTemplate(
          '{"q": "<$.a.quote>", "l": <$.a.list>, "first": <$.a.list[0]>, "none": <$.a.nothing>}',
          event,
        ),
      ),
    ).toEqual({
      q: 'say "hi"',
      l: [1, 2],
      first: 1,
      none: null,
    });
  });
});
