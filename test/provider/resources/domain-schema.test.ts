/**
 * How one xmllint run over several domain files is split back per file (provider/src/resources/private/
 * domain-schema.ts `attribute`), from xmllint 2.9's own output of a valid and an invalid domain.
 */
import { attribute } from '../../../provider/src/resources/private/domain-schema';

test('GIVEN xmllint output for a valid and an invalid file WHEN attributed THEN each file gets its own messages', () => {
  const stderr = [
    '/tmp/s/domain-0.xml validates',
    'Relax-NG validity error : Extra element devices in interleave',
    '/tmp/s/domain-1.xml:23: element devices: Relax-NG validity error : Element domain failed to validate content',
    '/tmp/s/domain-1.xml fails to validate',
    '',
  ].join('\n');
  expect(attribute(stderr, ['/tmp/s/domain-0.xml', '/tmp/s/domain-1.xml'])).toEqual([
    [],
    [
      'Relax-NG validity error : Extra element devices in interleave',
      'line 23: element devices: Relax-NG validity error : Element domain failed to validate content',
    ],
  ]);
});
