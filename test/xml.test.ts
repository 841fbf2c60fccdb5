import { attr, child, newParser, TEXT, type XmlNode } from '../src/xml';

describe('newParser (libvirt XML as libxml2 writes it)', () => {
  const parse = (xml: string) => child(newParser().parse(xml, true) as XmlNode, 'a');

  test('GIVEN an attribute with numeric character references (decimal and hex) WHEN parsed THEN they are decoded', () => {
    expect(attr(parse(`<a cmdline="x&#13;&#10;y&#x41;&#9;z"/>`), 'cmdline')).toBe('x\r\nyA\tz');
  });

  test("GIVEN XML's five named entities in text and attributes WHEN parsed THEN they are decoded", () => {
    const a = parse(`<a v="&lt;&amp;&quot;&apos;&gt;">&lt;b&gt; &amp; &quot;c&apos;</a>`);
    expect(attr(a, 'v')).toBe(`<&"'>`);
    expect(a?.[TEXT]).toBe(`<b> & "c'`);
  });

  test('GIVEN whitespace around a value WHEN parsed THEN it is kept verbatim, as a string', () => {
    const a = parse(`<a n="  1 ">  42 </a>`);
    expect(attr(a, 'n')).toBe('  1 ');
    expect(a?.[TEXT]).toBe('  42 ');
  });

  test('GIVEN an HTML-only named entity (not XML, which libxml2 never writes) WHEN parsed THEN it is left as written', () => {
    expect(parse(`<a>x&nbsp;y</a>`)?.[TEXT]).toBe('x&nbsp;y');
  });

  test('GIVEN repeated elements WHEN parsed THEN children are kept in order', () => {
    const a = parse(`<a><b i="1"/><b i="2"/></a>`);
    expect((a?.b as XmlNode[]).map((b) => b['@_i'])).toEqual(['1', '2']);
  });
});
