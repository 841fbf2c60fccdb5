import { RESOURCE_FIELDS } from '../../../cli/plan-summary/resource-fields';
import { resourceHandlers } from '../../../provider/src/registry';
import { schemaOf } from '../../../provider/src/resources/private/fields';

describe("plan-summary's field tables per resource type", () => {
  test('GIVEN the provider WHEN its resource types are listed THEN the summary knows a field table for exactly those', () => {
    expect(Object.keys(RESOURCE_FIELDS).sort()).toEqual(
      resourceHandlers()
        .map((h) => h.typeName)
        .sort(),
    );
  });

  test.each(resourceHandlers().map((h) => [h.typeName, h] as const))(
    'GIVEN %s WHEN its schema is derived from the table the summary uses THEN it is the schema the provider serves',
    (typeName, handler) => {
      expect(schemaOf(RESOURCE_FIELDS[typeName]!)).toEqual(handler.schema);
    },
  );
});
