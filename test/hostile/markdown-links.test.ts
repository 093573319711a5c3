// API text in the markdown report and the job summary can neither mention nor link: rendered by a
// GFM parser (micromark with its GFM extension, which follows GitHub's cmark-gfm), no anchor
// comes out of it, and no `@name` stands where GitHub would make it a mention.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { escapeCell, renderMarkdown } from '../../src/report/markdown.js';
import { makeFinding, makeReport } from '../fixtures/report.js';

const render = (md: string) => micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });

/** A mention as GitHub finds it in rendered text: `@` not after a word character, then a name. */
const MENTION = /(?<![\w`])@[a-z0-9][a-z0-9-]*/i;

const HOSTILE = [
  'ping @octocat',
  'ping .@octocat',
  '(@octocat)',
  '-@org/team',
  'see https://evil.example/login',
  'see HTTP://evil.example',
  'see www.evil.example/x',
  'mail ana@evil.example',
  'ftp://evil.example/file',
];

describe('markdown escapes', () => {
  it.each(HOSTILE)('%s renders with no link and no mention', (text) => {
    const html = render(`| x |\n| --- |\n| ${escapeCell(text)} |\n`);
    expect(html).not.toContain('<a ');
    expect(html.replace(/<[^>]+>/g, '')).not.toMatch(MENTION);
  });

  it('a whole report with hostile finding text renders with no anchor', () => {
    const findings = HOSTILE.map((message, i) => makeFinding({ message, resource: { kind: 'workflow', id: `wf-${i}`, name: message } }));
    const html = render(renderMarkdown(makeReport({ findings })));
    expect(html).toContain('evil.example');
    expect(html).not.toContain('<a ');
    expect(html.replace(/<[^>]+>/g, '')).not.toMatch(MENTION);
  });
});
