import { parseDomainXml, renderDomainXml } from '../../src/domain';
import { specTable } from './fixtures/specs';

describe('parseDomainXml(renderDomainXml(spec))', () => {
  test.each(specTable)('GIVEN %s WHEN rendered and parsed THEN the spec comes back unchanged', (_name, spec) => {
    expect(parseDomainXml(renderDomainXml(spec))).toStrictEqual(spec);
  });
});
